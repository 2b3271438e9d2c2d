"""The tree a git hook checks, kept between runs: a push writes what it changed.

Writing the pushed tree out of git for every check cost more than the check
(the synthetic 3,030-file tree: 1.4 s of system time) and grew with the
repository, not with the change. So a copy is kept, one per repository, in
the cache folder, with a manifest of each file's blob and stat. A check
writes the blobs that differ, rewrites a file whose stat is not the
manifest's (touched by someone else), and removes whatever the tree
does not hold: the copy is then the tree, file for file. The manifest is
removed before the copy changes and written after, so a copy cut off half
way has none and is written whole. The folder being stable, the run's cache
serves it too. A copy whose repository is gone is removed by the next
hook of any repository. Where no copy can be kept (a cache folder that cannot be
written, a system without ``flock``, another hook using it), a temporary
folder serves, as before, without the cache.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ..sources import gitrepo
from ..tree.cache import default_dir, digest

MANIFEST, TREE, LOCK, ORIGIN = "manifest.json", "tree", "lock", "origin"


@contextlib.contextmanager
def checked_out(repo, blobs: dict[str, str]):
    """(folder, kept): a folder holding ``blobs`` (path -> hash) and nothing
    else of the tree's, and whether it is the kept copy (the cache serves it)."""
    kept = _kept_copy(repo, blobs)
    if kept is None:
        with tempfile.TemporaryDirectory(prefix="hijax-migrate-hook.") as tmp:
            top = Path(tmp).resolve() / TREE
            sync(repo, blobs, top, top.parent / MANIFEST)  # an empty copy, written whole
            yield top, False
        return
    top, lock = kept
    try:
        yield top, True
    finally:
        os.close(lock)  # and with it the lock


def home(repo) -> Path:
    """Where this repository's copy is kept (one a working tree)."""
    return default_dir() / "hook-trees" / digest(os.path.realpath(repo.git_dir))[:16]


def remove(repo) -> None:
    """The repository's copy, from disk (its hooks are uninstalled): the copy
    is kept between runs on purpose, in the cache folder, never in memory."""
    shutil.rmtree(home(repo), ignore_errors=True)


def _kept_copy(repo, blobs: dict[str, str]) -> tuple[Path, int] | None:
    """The kept copy brought up to ``blobs``, and the open file holding its
    lock; None where it cannot be had."""
    folder = home(repo)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        if _locked(lock):
            (folder / ORIGIN).unlink(missing_ok=True)  # a link put there is not written through
            (folder / ORIGIN).write_text(os.path.realpath(repo.git_dir))
            _prune(folder.parent, folder)
            sync(repo, blobs, folder / TREE, folder / MANIFEST)
            return (folder / TREE).resolve(), lock
    except OSError:
        pass  # a disk full, a folder gone read-only: a temporary folder serves
    os.close(lock)
    return None


def _prune(trees: Path, keep: Path) -> None:
    """Remove the copies of repositories that are gone (their git folder
    is): nothing else would, and each holds a tree's Python files. A copy
    another hook holds, or one not written by this tool, is left."""
    for folder in trees.iterdir():
        try:
            origin = (folder / ORIGIN).read_text() if folder != keep else ""
            gone = bool(origin) and not os.path.exists(origin)
            lock = os.open(folder / LOCK, os.O_RDWR) if gone else None
        except OSError:
            continue
        if lock is not None:
            if _locked(lock):
                shutil.rmtree(folder, ignore_errors=True)
            os.close(lock)


def _locked(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # not POSIX: nothing to keep two hooks off one copy
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # another hook of this repository is checking it now
    return True


def sync(repo, blobs: dict[str, str], top: Path, manifest: Path) -> None:
    """Make ``top`` hold exactly ``blobs`` (path -> hash), writing only what
    the manifest does not show there already."""
    known = _read_manifest(manifest)
    manifest.unlink(missing_ok=True)  # from here until it is written again, the copy is not trusted
    if known is None or not stat.S_ISDIR(_lstat_mode(top)):
        _clear(top)  # a link in the folder's place is removed, never followed
        known = {}
    on_disk, empty = _stamps(top)
    _remove(top, [path for path in on_disk if path not in blobs], empty)
    stale = {path: blob for path, blob in blobs.items() if known.get(path) != [blob, *on_disk.get(path, ())]}
    for path in stale:
        if path in on_disk:
            (top / path).unlink()  # never written through: it may be a link someone put there
    gitrepo.write_blobs(repo, stale, top)
    (top / ".git").mkdir(parents=True, exist_ok=True)  # the top of this tree (if empty): nothing above it is read
    on_disk.update((path, _stamp(os.stat(top / path))) for path in stale)
    manifest.write_text(json.dumps({path: [blob, *on_disk[path]] for path, blob in blobs.items()}))


def _lstat_mode(path: Path) -> int:
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return 0


def _clear(top: Path) -> None:
    """Remove what stands at ``top``: a folder and its files, or a link or
    file in its place (a link to a folder is not a folder to empty)."""
    if stat.S_ISDIR(_lstat_mode(top)):
        shutil.rmtree(top, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            top.unlink()


def _read_manifest(manifest: Path) -> dict | None:
    try:
        entries = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return None
    return entries if isinstance(entries, dict) else None


def _stamp(info: os.stat_result) -> tuple[int, ...]:
    """What shows a file was not touched since it was written, as the stat
    record keeps it (``scans``): a program can set mtime back but not ctime,
    which any write moves. A link, or anything but a file, never matches."""
    if not stat.S_ISREG(info.st_mode):
        return (-1,)
    return info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _stamps(top: Path) -> tuple[dict[str, tuple[int, ...]], list[str]]:
    """Every entry under ``top`` but folders (and the ``.git`` marker), by
    relative path, with its stamp: one ``lstat`` each; and the folders found
    empty (someone removed their files)."""
    found, empty, pending = {}, [], [("", str(top))]
    while pending:
        prefix, folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        if not entries and prefix:
            empty.append(prefix[:-1])
        for entry in entries:
            name = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if name != ".git":
                    pending.append((name + "/", entry.path))
            else:
                found[name] = _stamp(entry.stat(follow_symlinks=False))
    return found, empty


def _remove(top: Path, paths: list[str], empty: list[str]) -> None:
    """Remove these files, then the folders they leave empty, and those
    found empty (a folder alone is a namespace package to an import)."""
    for path in paths:
        (top / path).unlink()
    for folder in sorted({str(Path(p).parent) for p in paths} | {*empty}, key=len, reverse=True):
        for parent in [Path(folder), *Path(folder).parents]:
            if str(parent) == ".":
                break
            with contextlib.suppress(OSError):  # not empty: kept
                (top / parent).rmdir()
