"""What one run reads of the tree on disk, made once and shared by all its
searches: the folders' listings, which folders are packages, the files'
bytes (kept within a budget), the originals of the files an in-place run
rewrote, and the searches for uses of a rule already made (``calls``).

A run makes one and hands it down (to its index, the searches, the
workers); nothing of it outlives the run, so the next run in the same
process sees the tree as it is then.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import SourceError
from ..sources.files import Listings, check_regular
from ..sources.originals import Originals
from .modules import Packages
from .shared import Shared

_KEEP = 64 << 20  # bytes of the tree a run keeps in memory


class TreeReads:
    def __init__(
        self,
        originals: Originals | None = None,
        listings: Listings | None = None,
        uses: dict | None = None,
        packages: Packages | None = None,
        shared: Shared | None = None,
    ):
        self.originals = originals if originals is not None else Originals()
        self.listings = listings if listings is not None else Listings()
        self.packages = packages if packages is not None else Packages()
        self.shared = shared if shared is not None else Shared()
        # calls.use_elsewhere's scans: (roots, rule, by name) -> [(file, line)]
        self.uses: dict[tuple[tuple[Path, ...], str, bool], list[tuple[Path, int]]] = {} if uses is None else uses
        self._read: dict[str, bytes] = {}
        self._kept = 0

    def tree_files(self, root: Path) -> list[Path]:
        """The files under ``root`` (``files.walk``), walked once a run."""
        return self.listings.files(root)

    def read(self, path: Path) -> bytes | None:
        """The file's bytes as the run found them; None for one that cannot be
        read, and never a FIFO or a device (reading one would block). Kept,
        while the run's reads fit ``_KEEP``: the subclass index and the
        search for uses each read the whole tree, and forked workers inherit
        what the parent read."""
        name = os.fspath(path)
        if name in self._read:
            return self._read[name]
        try:
            check_regular(path)
            data = self.originals.read_bytes(path)
        except (OSError, SourceError):
            return None
        if self._kept + len(data) <= _KEEP:
            self._read[name] = data
            self._kept += len(data)
        return data

    def anew(self) -> TreeReads:
        """What comes after the run (a review) reads the files anew; the
        listings, the packages and the searches for uses made serve on."""
        return TreeReads(listings=self.listings, uses=self.uses, packages=self.packages, shared=self.shared)
