"""A progress bar on stderr, for runs long enough to need one.

Shown only on a terminal, in text output, never with ``--check`` (whose
output scripts read) or ``--quiet``; it clears itself when the run ends.
rich is imported only when a bar is shown.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.settings import Settings

# Fewer candidate files than this finish before a bar would be read.
SHOW_FROM = 20


class Progress:
    def __init__(self, wanted: bool):
        self.wanted = wanted and sys.stderr.isatty()
        self._bar = None

    @classmethod
    def for_settings(cls, settings: Settings) -> Progress:
        quiet = settings.quiet or settings.check or settings.output_format != "text"
        return cls(not quiet)

    def start(self, total: int) -> None:
        if not self.wanted or total < SHOW_FROM:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
        from rich.progress import Progress as Bar

        self._bar = Bar(
            TextColumn("migrating"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[file]}"),
            console=Console(stderr=True),
            transient=True,
        )
        self._bar.start()
        self._task = self._bar.add_task("", total=total, file="")

    def advance(self, file: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, advance=1, file=file)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
