"""The first test of every search of the tree (for subclasses of a class, for
uses of a rule): does a file's text hold the word's bytes at all? One that
does not cannot name the word, so most files cost one read, never a regex or
a tokenizer; with the stat record (``scans``), a file known to lack the word
is not even read. A pass over the tree also looks for the words the run
expects to search for later (``expect``): each file is read once for them all."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..sources.files import needle_test, recoded
from ..sources.mark_bytes import may_mark
from .reads import TreeReads


class Holders:
    """The files of a tree that hold each word searched for, found once a
    project (a run); ``scans``: the stat record, or None; ``reads``: the
    run's reads of the tree."""

    def __init__(self, scans=None, reads: TreeReads | None = None):
        self.scans = scans
        self.reads = reads if reads is not None else TreeReads()
        self._found: dict[tuple[str, str], list[tuple[Path, str]]] = {}  # (root, word) -> its holders
        self._expected: set[str] = set()
        self._files: dict[str, tuple] = {}  # file -> (the words looked for, those held, digest)
        self._pending = None  # a pass under way in a child (``prefetch``)

    def expect(self, words) -> None:
        """Words a search may ask for later in the run (a guess: a word not
        expected costs a pass of its own, one expected and never asked
        costs a substring test a file)."""
        self._expected.update(words)

    def prefetch(self, roots: tuple[Path, ...], word: str) -> None:
        """Start the pass for ``word`` and the words expected in a forked child (``prefetch``)."""
        if self._pending is None:
            from . import prefetch  # a serial run's: pickle and the fork, imported where one is made

            self._pending = prefetch.start(lambda: self._pass_for(roots, word))

    def _pass_for(self, roots: tuple[Path, ...], word: str) -> tuple:
        """In the child: the pass, and what it found and learnt, for the parent."""
        for root in roots:
            self.files(root, word)
        return self._found, self._files, self.scans.taken() if self.scans is not None else {}

    def _adopt(self) -> None:
        """The child's pass, once it is needed; nothing, if it gave none."""
        pending, self._pending = self._pending, None
        answer = pending.answer()
        if isinstance(answer, tuple) and len(answer) == 3 and all(isinstance(part, dict) for part in answer):
            found, files, learnt = answer
            self._found = {**found, **self._found}
            self._files = {**files, **self._files}
            if self.scans is not None:
                self.scans.merge(learnt)

    def close(self) -> None:
        """The run's end: a pass nobody asked for is stopped."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def files(self, root: Path, word: str) -> list[tuple[Path, str]]:
        """(file, digest of its bytes) of each file of the tree under
        ``root`` whose bytes hold ``word``'s."""
        if self._pending is not None:
            self._adopt()
        key = os.fspath(root)
        if (key, word) not in self._found:
            words = [word, *sorted(w for w in self._expected if w != word and (key, w) not in self._found)]
            found: dict[str, list[tuple[Path, str]]] = {w: [] for w in words}
            for path in self.reads.tree_files(root) if root.is_dir() else []:
                held, data_digest = self._held(path, words)
                for w in held:
                    found[w].append((path, data_digest))
            self._found.update(((key, w), files) for w, files in found.items())
        return self._found[key, word]

    def _held(self, path: Path, words: list[str]) -> tuple[list[str], str]:
        """Which of ``words`` the file holds, and the digest of its bytes; a
        file under two roots (a folder of scripts in a project) read once."""
        looked, held, data_digest = self._files.get(os.fspath(path), ((), (), ""))
        if not set(words) <= set(looked):
            data, held = holding(path, words, self.scans, self.reads)
            looked, data_digest = words, hashlib.sha256(data).hexdigest() if held else ""
            self._files[os.fspath(path)] = (looked, held, data_digest)
        return [w for w in held if w in words], data_digest


def holding(path: Path, words: list[str], scans=None, reads: TreeReads | None = None) -> tuple[bytes | None, list[str]]:
    """The file's bytes (None: not read, or unreadable), and which of
    ``words`` they hold (``reads``: the run's reads of the tree)."""
    read = (reads if reads is not None else TreeReads()).read
    if scans is not None:
        return scans.holding(path, words, read)
    data = read(path)
    return data, held(data, words) if data is not None else []


# The word of a search for the files that may hold a comment leaving code alone
# (``mark_bytes``): no name holds a blank, so none is mistaken for it.
MARKS = "(a mark)"


def held(data: bytes, words) -> list[str]:
    """Which of ``words`` a file of these bytes could name. Python reads a name
    with letters beyond ASCII in the file's encoding, NFKC-normalised (``ﬁx`` is
    ``fix``): such a name, or a file with any, may name any word; so may ASCII
    bytes that a coding cookie reads as other text (utf-7, escapes). Whether they
    read so is asked once a file, never once a word (each question reads it all).
    ``MARKS``: could they hold a mark, as a family's walk reads another file's bytes."""
    other = not data.isascii() or recoded(data)
    return [
        word
        for word in words
        if (may_mark(data) if word == MARKS else other or not word.isascii() or needle_test(word.encode())(data))
    ]
