"""Facts a run's processes make once and share: the first worker to make one
leaves it, the others read it instead of making it again (jax's ``core.py`` is
the base module of most of its tree's classes: summarising it costs a worker
50 to 80 ms, each).

A fact is a pure function of its key (a digest of all it is made from), kept
in a folder of the run's own: made by ``mkdtemp`` (only its user may write
there) when the run's pool starts (a run in one process has nothing to share),
removed at the run's end. A fact missing, half-written or unreadable is made
again: sharing saves time, it never decides anything.
"""

from __future__ import annotations

import os


class Shared:
    """The run's shared facts; none until ``open``, and none in a run that never forks."""

    def __init__(self):
        self.folder: str | None = None
        self._owner = 0  # the process that made the folder, and removes it

    def open(self) -> None:
        """Made before the pool forks, so that every worker knows the folder."""
        if self.folder is None:
            import tempfile

            self.folder, self._owner = tempfile.mkdtemp(prefix="hijax-migrate-"), os.getpid()

    def fact(self, key: str, make):
        """``make()``, as the first process to make it left it; made, and left, here
        otherwise (None is never left: it is no answer another process can use)."""
        found = self._read(key) if self.folder is not None else None
        if found is not None:
            return found
        made = make()
        if made is not None and self.folder is not None:
            self._write(key, made)
        return made

    def _read(self, key: str):
        import pickle  # a run's own folder: only its processes write there

        try:
            with open(os.path.join(self.folder, key), "rb") as handle:
                return pickle.load(handle)
        except Exception:  # not there yet, or unreadable: made again
            return None

    def _write(self, key: str, value) -> None:
        import pickle

        temporary = os.path.join(self.folder, f".{key}.{os.getpid()}")
        try:
            with open(temporary, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, os.path.join(self.folder, key))  # readers see all of it or nothing
        except Exception:  # a full disk, a fact pickle cannot write: the others make it themselves
            _remove(temporary)

    def close(self) -> None:
        """The run's end, in the process that opened the folder: it goes, with what it holds."""
        if self.folder is None or os.getpid() != self._owner:
            return
        try:
            names = os.listdir(self.folder)
        except OSError:
            names = []
        for name in names:
            _remove(os.path.join(self.folder, name))
        try:
            os.rmdir(self.folder)
        except OSError:
            pass
        self.folder = None


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
