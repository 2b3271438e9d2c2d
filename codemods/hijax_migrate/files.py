"""Files on disk: finding them, reading them exactly, writing them safely."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pathspec

from .errors import SourceError

# Folders no user wants migrated: tooling, environments, build output.
SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", ".eggs", "__pycache__",
    "build", "dist", "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache",
})
# A file that can need a rewrite names one of these: each rule's words (see
# `needs` in the registry; a test keeps the two in step). Every other file is
# never parsed with libcst, the dominant cost of a run. Substring tests:
# three times faster than one regex with alternatives.
CANDIDATE_WORDS = (b"vjp_bwd", b"vjp_fwd", b"HiPrim", b"linearize_from_jvp",
                   b"apply_derived_linearization", b"transpose_jvp", b"transpose_linearized",
                   b"batch_dim_rule", b"VmapOf", b"def dce", b"def remat", b"QDD", b"MutableHiType",
                   b"__version_")


def is_candidate_text(data: bytes) -> bool:
    return any(word in data for word in CANDIDATE_WORDS)


def is_candidate_file(path: Path, chunk: int = 1 << 20) -> bool:
    """Does the file name a candidate word? Read in chunks: a huge file that
    names none is skipped like any other, without holding it in memory."""
    overlap = max(map(len, CANDIDATE_WORDS)) - 1
    with open(path, "rb") as handle:
        tail = b""
        while block := handle.read(chunk):
            if is_candidate_text(tail + block):
                return True
            tail = block[-overlap:]
    return False


# Documents with Python inside: notebooks' code cells, Markdown's fences.
DOCUMENTS = (".ipynb", ".md")
SOURCES = (".py", ".pyi") + DOCUMENTS


class FileError(SourceError):
    """A file that cannot be read, decoded or written."""


@dataclass
class SourceFile:
    path: Path
    raw: bytes
    text: str
    encoding: str


def _ignore_spec(folder: Path) -> pathspec.PathSpec | None:
    lines: list[str] = []
    for name in (".gitignore", ".git/info/exclude"):
        try:
            lines += (folder / name).read_text(errors="replace").splitlines()
        except OSError:
            pass
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


def _ignored(path: Path, specs: list[tuple[Path, pathspec.PathSpec]], is_dir: bool) -> bool:
    for base, spec in specs:
        rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        if spec.match_file(rel):
            return True
    return False


def walk(root: Path, exclude: pathspec.PathSpec | None = None) -> list[Path]:
    """Python files under ``root``, in a stable order, honouring git's ignores.

    Follows no symlink out of the tree, and never reaches a file twice.
    """
    root_real = os.path.realpath(root)
    found, seen = [], set()
    stack = [(root, root_real, [])]
    while stack:
        folder, folder_real, specs = stack.pop()
        spec = _ignore_spec(folder)
        specs = specs + [(folder, spec)] if spec else specs
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in reversed(entries):
            # realpath costs a system call a path component: only for links
            real = os.path.realpath(entry.path) if entry.is_symlink() else os.path.join(folder_real, entry.name)
            if real in seen or not _inside(real, root_real):
                continue
            path, is_dir = Path(entry.path), _is_dir(entry)
            if _ignored(path, specs, is_dir) or _excluded(path.relative_to(root), is_dir, exclude):
                continue
            seen.add(real)
            if is_dir and entry.name not in SKIP_DIRS and not os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                stack.append((path, real, specs))
            elif not is_dir and entry.name.endswith(SOURCES):
                found.append(path)
    return sorted(found)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop: listed as a file, reported when read
        return False


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _excluded(rel: Path, is_dir: bool, exclude: pathspec.PathSpec | None) -> bool:
    return exclude is not None and exclude.match_file(rel.as_posix() + ("/" if is_dir else ""))


# Bigger Python files are generated, not written: parsing one would take
# minutes and its rewrite could not be reviewed.
MAX_BYTES = 16 * 1024 * 1024


def check_regular(path: Path) -> None:
    """Raise FileError unless ``path`` is a regular file of a sane size.

    Reading a FIFO or a device would block or never end.
    """
    try:
        info = os.stat(path)
    except OSError as error:
        raise FileError(f"cannot read: {error.strerror or error}") from error
    if not stat.S_ISREG(info.st_mode):
        raise FileError("not a regular file")
    if info.st_size > MAX_BYTES:
        raise FileError(f"too large to migrate ({info.st_size / 2**20:.1f} MiB; "
                        f"the limit is {MAX_BYTES // 2**20} MiB)")


def read_source(path: Path) -> SourceFile:
    check_regular(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise FileError(f"cannot read: {error.strerror or error}") from error
    return decode(path, raw)


def decode(path: Path, raw: bytes) -> SourceFile:
    if b"\0" in raw:
        raise FileError("contains NUL bytes; not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        text = raw.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        line = raw[: getattr(error, "start", 0)].count(b"\n") + 1 if isinstance(error, UnicodeDecodeError) else 0
        raise FileError(f"cannot decode: {error}", line) from error
    return SourceFile(path, raw, text, encoding)


def encode(source: SourceFile, text: str) -> bytes:
    return text.encode(source.encoding)


TMP_SUFFIX = ".hijax-tmp"  # never a source suffix: a walk never picks one up


def write_atomic(source: SourceFile, data: bytes) -> None:
    """Replace the file with ``data`` unless it changed since it was read.

    The new text goes to a temporary file beside it, is flushed to disk and
    renamed over the original: readers see the old file or the new, never
    half. A symlink stays a link (its target is written), and the mode and,
    where allowed, the owner are kept.
    """
    target = Path(os.path.realpath(source.path))
    try:
        if target.read_bytes() != source.raw:
            raise FileError("changed on disk while the tool ran; not overwritten")
        info = target.stat()
    except OSError as error:
        raise FileError(f"cannot write: {error.strerror or error}") from error
    with signals_deferred():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
        except OSError as error:
            raise FileError(f"cannot write: {error.strerror or error}") from error
        try:
            _fill(fd, tmp, data, info)
            os.replace(tmp, target)
        except BaseException:
            _remove(tmp)
            raise


def _fill(fd: int, tmp: str, data: bytes, info: os.stat_result) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, stat.S_IMODE(info.st_mode))
    if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.chown(tmp, info.st_uid, info.st_gid)
        except PermissionError:
            pass  # not ours to give away: the file becomes the runner's


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


_DEFERRED = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def signals_deferred():
    """Ctrl-C and SIGTERM wait until the block is done: a write is never cut
    in half, and its temporary file is never left behind."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
