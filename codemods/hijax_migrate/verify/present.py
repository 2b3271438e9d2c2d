"""What a verify run shows: progress on stderr, then the migration's
findings and summary (stderr) and the comparison (stdout), in text, JSON or
GitHub form, as a plain run shows its own."""

from __future__ import annotations

import os
import sys

from ..core.settings import Settings
from ..output import report as migration
from . import report

_TAIL = 30  # lines of the after run's output shown when a test broke


class Present:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.text = settings.output_format == "text"
        self.color = settings.color == "always" or (
            settings.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        )

    def say(self, line: str) -> None:
        if self.text and not self.settings.quiet:
            print(line, file=sys.stderr, flush=True)

    def warn(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def logs(self, copy, found, keep: bool) -> None:
        """Where the runs' output is (kept), or the end of the after run's where a test broke."""
        if keep:
            print(
                f"verify: kept {copy.top}: the migrated copy in tree/, the runs' output in before.log and after.log",
                file=sys.stderr,
            )
        elif self.text and found.totals()[report.BROKEN]:
            lines = (copy.top / "after.log").read_text(encoding="utf-8", errors="replace").splitlines()
            print("\n".join(["verify: the end of the after run's output:", *lines[-_TAIL:]]), file=sys.stderr)

    def report(self, migrated, found) -> None:
        outcomes = migrated.outcomes
        if self.settings.output_format == "json":
            doc = migration.as_json(outcomes, migrated.scanned, migrated.target)
            print(report.as_json(found, doc) if found else report.as_json_without_runs(doc))
        elif self.settings.output_format == "github":
            text = "\n".join(filter(None, [migration.as_github(outcomes), found and report.as_github(found)]))
            if text:
                print(text)
        else:
            self._text(migrated, found)

    def _text(self, migrated, found) -> None:
        for outcome in migrated.outcomes:
            for finding in outcome.findings:
                print(migration.finding_text(finding), file=sys.stderr)
            if outcome.error:
                print(migration.error_text(outcome), file=sys.stderr)
            if self.settings.diff and outcome.diff:
                sys.stdout.write(migration.colorize(outcome.diff) if self.color else outcome.diff)
        print(report.as_text(found, self.color) if found else "verify: nothing to migrate: the command was not run")
        if not self.settings.quiet:
            written = found is not None and found.written
            print(migration.summary(migrated.outcomes, migrated.scanned, migrated.target, written), file=sys.stderr)
