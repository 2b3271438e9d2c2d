"""The first test of every search of the tree (for subclasses of a class, for
uses of a rule): does a file's text hold the word's bytes at all? One that
does not cannot name the word, so most files cost one read, never a regex or
a tokenizer; with the stat record (``scans``), a file known to lack the word
is not even read."""

from __future__ import annotations

from pathlib import Path

from . import originals
from .errors import SourceError
from .files import check_regular


def read(path: Path) -> bytes | None:
    """The file's bytes as the run found them; None for one that cannot be
    read, and never a FIFO or a device (reading one would block)."""
    try:
        check_regular(path)
        return originals.read_bytes(path)
    except (OSError, SourceError):
        return None


def holding(path: Path, word: str, scans=None) -> bytes | None:
    """The file's bytes if they hold ``word``'s; None where they do not, or
    the file cannot be read."""
    if scans is not None:
        return scans.holding(path, word, read)
    data = read(path)
    return data if data is not None and word.encode() in data else None
