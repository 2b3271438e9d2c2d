"""The journal of an in-place run's unit of writes, as git keeps index.lock.

An in-place run writes the files of one class family as one unit. Before
the unit's first write, a folder in the project root receives each file's
original and new bytes, then a list naming them (written last: a folder
without it records nothing); the folder is removed once the unit is
written. Ctrl-C and SIGTERM wait for the unit, and a write error puts back
what the unit had written, so only a run killed outright (SIGKILL, power
loss) leaves it. The next run finds it and stops; ``hijax-migrate
--recover`` puts back every file of the unit that holds its new bytes (a
file changed since is left, and named).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from .files import FileError, SourceFile, write_atomic

FOLDER = ".hijax-migrate-journal"
_LIST = "unit.json"


class Journal:
    def __init__(self, root: Path):
        self.folder = Path(root) / FOLDER

    def pending(self) -> bool:
        """Does a cut-off unit wait here? (a folder without its list recorded nothing)"""
        return os.path.isfile(self.folder / _LIST)

    def begin(self, unit: list[tuple[Path, bytes, bytes]]) -> None:
        """Before a unit's first write: each (file, original, new), on disk for good."""
        self.end()  # a folder left without its list
        self.folder.mkdir(parents=True)
        entries = []
        for number, (path, old, new) in enumerate(unit):
            _durable(self.folder / f"{number}.old", old)
            _durable(self.folder / f"{number}.new", new)
            entries.append([os.path.realpath(path), f"{number}.old", f"{number}.new"])
        _durable(self.folder / (_LIST + ".tmp"), json.dumps({"pid": os.getpid(), "files": entries}).encode())
        os.replace(self.folder / (_LIST + ".tmp"), self.folder / _LIST)
        _sync_folder(self.folder)

    def end(self) -> None:
        """The unit is written, or put back: nothing left to recover."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def files(self) -> list[str]:
        return [entry[0] for entry in self._entries()]

    def _entries(self) -> list[list[str]]:
        return json.loads((self.folder / _LIST).read_text())["files"]

    def recover(self) -> tuple[list[str], list[str]]:
        """Put back each file of the unit that holds its new bytes: (files
        restored, problems). The journal goes only when there is no problem."""
        restored, problems = [], []
        for path, old_slot, new_slot in self._entries():
            old, new = (self.folder / old_slot).read_bytes(), (self.folder / new_slot).read_bytes()
            try:
                with open(path, "rb") as handle:
                    now = handle.read()
            except OSError as error:
                problems.append(
                    f"{path}: cannot read: {error.strerror or error}; its original is {self.folder / old_slot}"
                )
                continue
            if now == new and now != old:
                try:
                    write_atomic(SourceFile(Path(path), now, "", ""), old)
                    restored.append(path)
                except FileError as error:
                    problems.append(f"{path}: {error}; its original is {self.folder / old_slot}")
            elif now != old:
                problems.append(
                    f"{path}: changed since the run was cut off; left as it is (its "
                    f"original is {self.folder / old_slot})"
                )
        if not problems:
            self.end()
        return restored, problems


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
