"""The tree as the run found it, while an in-place run rewrites it.

Workers write each file as soon as it is migrated, yet a decision in another
file (a flag its base sets, a subclass's rule, a call of a rule renamed
there) must rest on the code as it was, whatever the order the files are
done in. Before a file is replaced its bytes are kept in a folder of the run;
reads of other files look there first. The folder goes when the run ends.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ..core.errors import SourceError

_folder: Path | None = None


def start() -> Path:
    global _folder
    _folder = Path(tempfile.mkdtemp(prefix="hijax-migrate-originals-"))
    return _folder


def use(folder: Path | None) -> None:
    """In a worker: the parent's folder."""
    global _folder
    _folder = folder


def finish() -> None:
    global _folder
    if _folder is not None:
        shutil.rmtree(_folder, ignore_errors=True)
    _folder = None


def _slot(path: Path) -> Path:
    return _folder / hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()


def keep(path: Path, raw: bytes) -> None:
    """Before ``path`` is replaced: its bytes as the run found them."""
    if _folder is None:
        return
    slot = _slot(path)
    if slot.exists():
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=_folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.replace(tmp, slot)  # whole or absent: a reader never sees half
    except OSError as error:  # without the copy, no write: the file stays as it is
        raise SourceError(f"cannot write: {error.strerror or error} (keeping the text as found "
                          "for the run)") from error


def replaced(path: Path) -> bool:
    """Has this run replaced ``path``? Its stat then no longer matches what is read of it."""
    return _folder is not None and _slot(path).exists()


def read_bytes(path: Path) -> bytes:
    """``path``'s bytes as the run found them."""
    if _folder is not None:
        try:
            return _slot(path).read_bytes()
        except FileNotFoundError:
            pass
    with open(path, "rb") as handle:  # not pathlib's read_bytes: a search reads every file of the tree
        return handle.read()
