"""The journal of an in-place run's unit of writes, as git keeps index.lock.

An in-place run writes the files of one class family as one unit. Its
journal is a folder, ``.hijax-migrate-journal``, in the project root of the
paths the run is given together (``root_for``: the git or Mercurial top
holding their common folder, else that folder: ``-i a b`` keeps it beside
``a`` and ``b``, not in ``a``), and a run looks for one there and in every
folder above (``around``: a later ``-i b`` or ``--check .`` finds it). Runs
over separate trees from one working folder keep separate journals. The states a unit's write goes
through, each named by the step that reaches it (``STEPS``; a test stops
the process at every one):

- ``folder``: an empty folder; ``slots``: each file's original and new bytes
  (``N.old``, ``N.new``); ``list-tmp``: the list written aside. A folder
  without its list records nothing: no file is written yet, and the next
  unit's ``begin`` clears it.
- ``list``: the list ``unit.json`` (a version, the files), put in place
  atomically and flushed: from here the journal counts. ``write:N``: N of the
  unit's files hold their new bytes.
- ``unlisted``: removal starts with the list, so a journal is never seen
  without its slots; ``removed``: the folder gone.

Ctrl-C and SIGTERM wait for the unit, and a write error puts back what the
unit had written, so only a run killed outright (SIGKILL, power loss) leaves
a list. The next run finds it and stops; ``hijax-migrate --recover`` puts
back every file of the unit that holds its new bytes (a file changed since
is left, and named). A journal this version cannot read (another layout or
version, damaged, a slot missing) is ``unreadable``: one line says what to
do, and neither it nor the files it names are touched.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from .files import FileError, SourceFile, write_atomic

FOLDER = ".hijax-migrate-journal"
VERSION = 1
_LIST = "unit.json"
_REPO_MARKS = (".git", ".hg")
# The steps of a unit's write, in order (``write:N`` is one per file written).
STEPS = ("folder", "slots", "list-tmp", "list", "write", "unlisted", "removed")


def root_of(start: Path) -> Path:
    """The project root a journal lives in: the repository's top holding
    ``start`` (a folder, or a file's folder), else that folder."""
    folder = Path(os.path.abspath(start))
    folder = folder if os.path.isdir(folder) else folder.parent
    return next((f for f in (folder, *folder.parents) if any(os.path.lexists(f / m) for m in _REPO_MARKS)), folder)


def root_for(paths: list[Path]) -> Path:
    """The project root a run over ``paths`` keeps its journal in: ``root_of`` their common folder."""
    folders = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))) for p in paths]
    return root_of(Path(os.path.commonpath(folders)) if folders else Path.cwd())


class Journal:
    def __init__(self, root: Path):
        self.folder = Path(root) / FOLDER

    @classmethod
    def at(cls, start: Path) -> Journal:
        """The journal of the project ``start`` stands in (``root_of``)."""
        return cls(root_of(start))

    @classmethod
    def around(cls, root: Path) -> Journal:
        """The nearest journal waiting in ``root`` or a folder above it (a run over ``a b``
        keeps it in their parent, where a run over ``b`` alone must find it); else ``root``'s."""
        for folder in (root, *root.parents):
            if cls(folder).pending():
                return cls(folder)
        return cls(root)

    def pending(self) -> bool:
        """Does a cut-off unit wait here? (a folder without its list recorded nothing)"""
        return os.path.lexists(self.folder / _LIST)

    def begin(self, unit: list[tuple[Path, bytes, bytes]], step: Callable[[str], None] = lambda name: None) -> None:
        """Before a unit's first write: each (file, original, new), on disk for good."""
        if self.pending():
            raise FileError(f"a journal waits at {self.folder}: run hijax-migrate --recover")
        import shutil  # (here and in end) a unit's writes alone: every run asks pending()

        shutil.rmtree(self.folder, ignore_errors=True)  # a folder left without its list
        self.folder.mkdir(parents=True)
        step("folder")
        entries = []
        for number, (path, old, new) in enumerate(unit):
            _durable(self.folder / f"{number}.old", old)
            _durable(self.folder / f"{number}.new", new)
            entries.append([os.path.realpath(path), f"{number}.old", f"{number}.new"])
        step("slots")
        listed = {"version": VERSION, "pid": os.getpid(), "files": entries}
        _durable(self.folder / (_LIST + ".tmp"), json.dumps(listed).encode())
        step("list-tmp")
        os.replace(self.folder / (_LIST + ".tmp"), self.folder / _LIST)
        _sync_folder(self.folder)
        step("list")

    def end(self, step: Callable[[str], None] = lambda name: None) -> None:
        """The unit is written, or put back: nothing left to recover. The list
        goes first (and for good), so no state holds a list without its slots."""
        try:
            os.unlink(self.folder / _LIST)
            _sync_folder(self.folder)
        except OSError:
            pass
        step("unlisted")
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)
        step("removed")

    def unreadable(self) -> str | None:
        """Why a pending journal cannot be read, as one line that says what to
        do; None when it can."""
        try:
            self._entries()
        except _Unreadable as error:
            return (
                f"hijax-migrate: error: the journal {self.folder} cannot be read ({error}): it is damaged or "
                f"from another version of hijax-migrate; check the files of the cut-off run by hand "
                f"(e.g. git status), then delete {self.folder}; nothing in it was touched"
            )
        return None

    def files(self) -> list[str]:
        return [entry[0] for entry in self._entries()]

    def _entries(self) -> list[list[str]]:
        try:
            listed = json.loads((self.folder / _LIST).read_bytes())
        except (OSError, ValueError) as error:
            raise _Unreadable(f"{_LIST}: {getattr(error, 'strerror', None) or error}") from error
        if not isinstance(listed, dict) or listed.get("version") != VERSION:
            version = listed.get("version") if isinstance(listed, dict) else None
            raise _Unreadable(f"{_LIST}: version {version!r}, this version reads {VERSION}")
        entries = listed.get("files")
        if not isinstance(entries, list) or not all(_entry_shape(n, e) for n, e in enumerate(entries)):
            raise _Unreadable(f"{_LIST}: not the layout this version writes")
        missing = [slot for _, *slots in entries for slot in slots if not os.path.isfile(self.folder / slot)]
        if missing:
            raise _Unreadable(f"{', '.join(missing)} missing")
        return entries

    def recover(self) -> tuple[list[str], list[str]]:
        """Put back each file of the unit that holds its new bytes: (files
        restored, problems). The journal goes only when there is no problem;
        an unreadable one is one problem, and nothing is touched."""
        problem = self.unreadable()
        if problem:
            return [], [problem]
        restored, problems = [], []
        for path, old_slot, new_slot in self._entries():
            old, new = (self.folder / old_slot).read_bytes(), (self.folder / new_slot).read_bytes()
            put_back, problem = _put_back(Path(path), old, new, self.folder / old_slot)
            restored += [path] if put_back else []
            problems += [problem] if problem else []
        if not problems:
            self.end()
        return restored, problems


class _Unreadable(Exception):
    pass


def _entry_shape(number: int, entry) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and isinstance(entry[0], str)
        and os.path.isabs(entry[0])
        and entry[1:] == [f"{number}.old", f"{number}.new"]
    )


def _put_back(path: Path, old: bytes, new: bytes, kept: Path) -> tuple[bool, str | None]:
    """One file of the unit given its original back if it holds the new
    bytes: (put back?, the problem as a line naming where its original is)."""
    try:
        with open(path, "rb") as handle:
            now = handle.read()
    except OSError as error:
        return False, f"{path}: cannot read: {error.strerror or error}; its original is {kept}"
    if now == old:
        return False, None
    if now != new:
        return False, f"{path}: changed since the run was cut off; left as it is (its original is {kept})"
    try:
        write_atomic(SourceFile(path, now, "", ""), old)
    except FileError as error:
        return False, f"{path}: {error}; its original is {kept}"
    return True, None


def _durable(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
