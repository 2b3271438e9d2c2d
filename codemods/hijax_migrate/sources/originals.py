"""The tree as the run found it, while an in-place run rewrites it.

Workers write each file as soon as it is migrated, yet a decision in another
file (a flag its base sets, a subclass's rule, a call of a rule renamed
there) must rest on the code as it was, whatever the order the files are
done in. Before a file is replaced its bytes are kept in a folder of the run
(``Originals``); reads of other files look there first. A file's new bytes
wait there too, until its family is written as one unit. The folder goes
when the run ends; a run killed before (SIGKILL, the machine out of memory)
leaves it behind, and the next in-place run removes each one whose run is
gone (its process id is in its name).
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SourceError

_PREFIX = "hijax-migrate-originals-"


_STALE_AFTER = 3600  # seconds untouched: a process id names no process of another namespace either


def sweep_stale(folder: Path) -> None:
    """Remove the originals' folders of runs that are gone: their process id (in the
    folder's name) names no process, and none was kept there for an hour (a /tmp
    shared with another PID namespace). One of another user's, or of a process alive, stays."""
    for found in folder.glob(f"{_PREFIX}*-*"):
        pid = found.name[len(_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)) and _untouched(found):
            import shutil

            shutil.rmtree(found, ignore_errors=True)


def _untouched(found: Path) -> bool:
    try:
        return time.time() - found.stat().st_mtime > _STALE_AFTER
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive, as far as this run may know
        return True
    return True


@dataclass(frozen=True)
class Originals:
    """One run's kept originals: ``folder`` None for a run that writes
    nothing (every file is then read as it is). Picklable: a worker is handed
    its run's."""

    folder: Path | None = None

    @classmethod
    def start(cls) -> Originals:
        """An in-place run's, in a folder of its own (those of runs killed before removed)."""
        import tempfile  # (here and below) an in-place run's alone: a check starts without it

        sweep_stale(Path(tempfile.gettempdir()))
        return cls(Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-")))

    def finish(self) -> None:
        """The run's end: the folder goes."""
        if self.folder is not None:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)

    def _slot(self, path: Path) -> Path:
        return self.folder / hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()

    def keep(self, path: Path, raw: bytes) -> None:
        """Before ``path`` is replaced: its bytes as the run found them."""
        if self.folder is None:
            return
        slot = self._slot(path)
        if not slot.exists():
            self._put(slot, raw)

    def _put(self, slot: Path, data: bytes) -> None:
        import tempfile

        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, slot)  # whole or absent: a reader never sees half
        except OSError as error:  # without the copy, no write: the file stays as it is
            raise SourceError(
                f"cannot write: {error.strerror or error} (keeping the text as found for the run)"
            ) from error

    def stage(self, path: Path, data: bytes) -> None:
        """``path``'s new bytes, kept until the run writes its family as one
        unit (``run/units.py``); its original is kept first."""
        self._put(self._slot(path).with_suffix(".new"), data)

    def staged(self, path: Path) -> bytes | None:
        """The new bytes staged for ``path``; None: none."""
        if self.folder is None:
            return None
        try:
            return self._slot(path).with_suffix(".new").read_bytes()
        except OSError:
            return None

    def replaced(self, path: Path) -> bool:
        """Has this run replaced ``path``? Its stat then no longer matches what is read of it."""
        return self.folder is not None and self._slot(path).exists()

    def read_bytes(self, path: Path) -> bytes:
        """``path``'s bytes as the run found them."""
        if self.folder is not None:
            try:
                return self._slot(path).read_bytes()
            except FileNotFoundError:
                pass
        return read_bytes(path)


def read_bytes(path: Path) -> bytes:
    """``path``'s bytes on disk now."""
    with open(path, "rb") as handle:  # not pathlib's read_bytes: a search reads every file of the tree
        return handle.read()
