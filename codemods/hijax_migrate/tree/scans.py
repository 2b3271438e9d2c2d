"""What each file of a tree holds, remembered across runs by its stat.

As git's index does for a clean file: a file whose device, inode, size,
mtime and ctime are as they were when it was last read is not read again
(ctime cannot be set back by a program: any write moves it). Remembered:
the candidate words it was searched for and those it names, and, once a
search for subclasses read it, the names it may subclass and the digest of
its bytes; the words a search of the tree found its bytes to lack (the last
few). Only a file last
changed well before it was read is remembered, so a change within the same
timestamp tick (2 s, the coarsest file systems keep) cannot go unseen; a
file changed just before a run is read again by the next one. Kept beside
the results cache, for the tool's version and the run's search roots; a
corrupt or unwritable record is no record.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from ..sources.files import file_words
from ..sources.originals import Originals
from .cache import _write, digest, tool_key
from .holders import held as held_words

_RACY_NS = 2_000_000_000
_LACKS = 16  # words a file is remembered to lack: the searches of a few runs
_STATS = 1 << 18  # files whose stat a run keeps (about 200 bytes each)
_SPELT: dict[frozenset[bytes], list[str]] = {}  # words -> their record's list (a pure memo)


def _searched(entry: dict | None) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """The words the file was searched for, and those of them it names (none
    known unless both lists are whole: a corrupt record is no record)."""
    lists = [entry.get(key) if entry is not None else None for key in ("asked", "named")]
    if all(isinstance(words, list) and all(isinstance(word, str) for word in words) for words in lists):
        asked, named = (frozenset(word.encode() for word in words) for words in lists)
        return asked, named & asked
    return frozenset(), frozenset()


def _spelt(words: frozenset[bytes]) -> list[str]:
    """``words`` as the record lists them, sorted: one list for each set, shared by every
    entry that holds it (most files are asked the same words and name none); never
    changed in place, so sharing it changes nothing the record says."""
    found = _SPELT.get(words)
    if found is None:
        found = sorted(word.decode() for word in words)
        if len(_SPELT) < 64:
            _SPELT[words] = found
    return found


class Scans:
    """``originals``: those the run keeps (a file it replaced is read as found);
    ``tool``: the run's ``cache.tool_key()`` (None: worked out here)."""

    def __init__(
        self, folder: Path | None, roots: tuple[Path, ...], originals: Originals | None = None, tool: str | None = None
    ):
        key = digest("\0".join([tool if tool is not None else tool_key(), *map(str, roots)]))
        self.path = folder / "scans" / key if folder is not None else None
        self.originals = originals if originals is not None else Originals()
        self._known = self._load()
        self._changed = False
        self._learnt: dict[str, dict] = {}  # in a worker: what the parent has not heard of
        self._stats: dict[str, tuple[str, list[int]] | None] = {}  # see _stat; a Scans is one run's

    def _load(self) -> dict[str, dict]:
        if self.path is None:
            return {}
        try:
            known = json.loads(self.path.read_text())
            return known if isinstance(known, dict) else {}
        except (OSError, ValueError):
            return {}

    def _entry(self, path: Path) -> tuple[str, dict | None] | None:
        """The file's key and its remembered facts, if it is as it was; None: not a regular file."""
        found = self._stat(path)
        if found is None:
            return None
        key, signature = found
        entry = self._known.get(key)
        if not isinstance(entry, dict) or entry.get("stat") != signature:
            settled = max(signature[3:]) < time.time_ns() - _RACY_NS  # mtime and ctime
            entry = {"stat": signature} if settled else None
            self._known.pop(key, None)
            if entry is not None:
                self._known[key] = entry
            self._changed = True
        return key, entry

    def _stat(self, path: Path) -> tuple[str, list[int]] | None:
        """The file's key and signature as this run first found them (the
        pre-filter, the subclass index and the search for uses each ask);
        None: not a regular file."""
        name = os.fspath(path)
        if name in self._stats:
            return self._stats[name]
        try:
            info = os.stat(path)
        except OSError:
            info = None
        found = None  # FIFOs and devices are never opened
        if info is not None and stat.S_ISREG(info.st_mode):
            found = os.path.abspath(name), [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]
        if len(self._stats) < _STATS:
            self._stats[name] = found
        return found

    def _remember(self, found: tuple[str, dict | None] | None, path: Path, **facts) -> None:
        """``facts`` of the file ``_entry`` found (its key, its entry), where it is remembered."""
        # A file this run replaced is read as found: its facts are not those of its new stat.
        entry = found[1] if found is not None else None
        if entry is not None and not self.originals.replaced(path):
            entry.update(facts)
            self._changed = True
            self._learnt[found[0]] = entry

    def taken(self) -> dict[str, dict]:
        """In a worker: the entries learnt since the last call, for the parent."""
        learnt, self._learnt = self._learnt, {}
        return learnt

    def merge(self, learnt: dict[str, dict]) -> None:
        """In the parent: what a worker learnt (it saves nothing itself)."""
        for key, entry in learnt.items():
            known = self._known.get(key)
            same = isinstance(known, dict) and known.get("stat") == entry.get("stat")
            self._known[key] = {**known, **entry} if same else entry  # another stat: only the worker's
            self._changed = True

    def is_candidate(self, path: Path, words: frozenset[bytes]) -> bool:
        """May the file need a migration, naming one of ``words`` (those of the
        rules that run)? Unreadable and special files may: they are reported."""
        return self._candidate(path, words, read=True)

    def answered(self, path: Path, words: frozenset[bytes]) -> bool | None:
        """``is_candidate``'s answer where it needs no read of the file; None: it does.
        An empty record (a first run) knows no file: none is even stat'ed here, but
        where it is read (the pre-filter's workers, in parallel)."""
        if not self._known:
            return None
        return self._candidate(path, words, read=False)

    def _candidate(self, path: Path, words: frozenset[bytes], read: bool) -> bool | None:
        found = self._entry(path)
        if found is None:
            return True
        _, entry = found
        asked, named = _searched(entry)
        if not words <= asked:  # only the words asked are looked for: the others cost a read
            if not read:
                return None
            try:
                named |= file_words(path, words - asked)
            except OSError:
                return True  # the migration says why it cannot be read
            asked |= words
            self._remember(found, path, asked=_spelt(asked), named=_spelt(named))
        return not named.isdisjoint(words)

    def named_and_size(self, path: Path, words: frozenset[bytes]) -> tuple[frozenset[bytes], int] | None:
        """Which of ``words`` the file names, and its size, where the record asked it
        them (the pre-filter did); None: it did not (a file not remembered, a word not asked)."""
        found = self._entry(path)
        if found is None or found[1] is None:
            return None
        asked, named = _searched(found[1])
        return (named & words, found[1]["stat"][2]) if words <= asked else None

    def names(self, path: Path, read) -> tuple[list[str], str] | None:
        """``read(path)``: (names, digest) of the file, or None; remembered."""
        found = self._entry(path)
        entry = found[1] if found is not None else None
        if entry is not None and isinstance(entry.get("names"), list) and isinstance(entry.get("digest"), str):
            return entry["names"], entry["digest"]
        facts = read(path)
        if facts is not None:
            self._remember(found, path, names=list(facts[0]), digest=facts[1])
        return facts

    def holding(self, path: Path, words: list[str], read) -> tuple[bytes | None, list[str]]:
        """``read(path)``: the file's bytes (None: unreadable), and which of
        ``words`` they hold; the words they lack are remembered, and a file
        known to lack them all is not read (None, [])."""
        found = self._entry(path)
        entry = found[1] if found is not None else None
        lacks = entry.get("lacks") if entry is not None else None
        lacks = lacks if isinstance(lacks, list) else []
        wanted = [w for w in words if w not in lacks]
        data = read(path) if wanted else None
        if data is None:
            return None, []
        held = held_words(data, wanted)
        if len(held) < len(wanted):  # the first word kept longest: the one a search asked for
            self._remember(found, path, lacks=[*lacks, *(w for w in reversed(wanted) if w not in held)][-_LACKS:])
        return data, held

    def save(self) -> None:
        if self.path is None or not self._changed:
            return
        try:
            _write(self.path, json.dumps(self._known))
            self._changed = False
        except (OSError, ValueError):
            pass  # costs the next run some reading, never this run
