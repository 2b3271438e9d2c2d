"""The scratch copy the migration is made and tested in; the user's files and
git state are only read.

In a git repository: a worktree of HEAD (``git worktree add --detach``), with
the working tree's changes copied over it: files changed since HEAD (staged or
not) and untracked files git does not ignore; files deleted since HEAD are
deleted. No stash, no checkout, no index write (GIT_OPTIONAL_LOCKS=0 keeps
git's opportunistic index refresh off), hooks not run. Afterwards
``git worktree remove --force`` (and, for a copy kept or a worktree
half-made at Ctrl-C, removing git's record of it, as ``git worktree prune``
would, but of this one only) leave ``.git/worktrees`` as it was. Elsewhere: a copy of the project's folder.
Ignored files (build products, virtualenvs) are not in a worktree's copy.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .process import uninterrupted

_GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
_CACHES = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache")


@dataclass
class Scratch:
    root: Path  # the project's top (a repository's, where there is one)
    top: Path  # the temporary folder: the copy in tree/, the runs' logs and results beside it
    worktree: bool = False

    @property
    def tree(self) -> Path:
        return self.top / "tree"

    def inside(self, path: Path) -> Path:
        """Where ``path`` (in the project) is in the copy."""
        path = Path(os.path.abspath(path))
        if not path.is_relative_to(self.root):  # named through a link to the project
            path = Path(os.path.realpath(path.parent)) / path.name
        return self.tree / path.relative_to(self.root)


def git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", *args],
        cwd=root,
        capture_output=True,
        check=False,
        env={**os.environ, **_GIT_ENV},
        stdin=subprocess.DEVNULL,
    )


def repository_top(path: Path) -> Path | None:
    """The top of the git repository ``path`` is in, where it has a commit."""
    folder = path if path.is_dir() else path.parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top.returncode or git(folder, "rev-parse", "--verify", "-q", "HEAD").returncode:
        return None
    return Path(top.stdout.decode().strip()).resolve()


@contextlib.contextmanager
def made(root: Path, keep: bool):
    """The copy, removed on the way out (Ctrl-C included) unless ``keep``."""
    scratch = Scratch(root, Path(tempfile.mkdtemp(prefix="hijax-verify-")).resolve())
    try:
        scratch.worktree = repository_top(root) == root and _worktree(scratch)
        if not scratch.worktree:
            shutil.copytree(root, scratch.tree, symlinks=True, ignore=_CACHES)
        yield scratch
    finally:
        with uninterrupted():
            _release(scratch, keep)


def _worktree(scratch: Scratch) -> bool:
    added = git(scratch.root, "worktree", "add", "--detach", "--quiet", str(scratch.tree), "HEAD")
    if added.returncode:
        shutil.rmtree(scratch.tree, ignore_errors=True)
        return False
    for name in _changed(scratch.root):
        _bring(scratch.root / name, scratch.tree / name)
    return True


def _changed(root: Path) -> list[str]:
    """Tracked files that differ from HEAD (or are gone), and untracked ones not ignored."""
    tracked = git(root, "diff", "--name-only", "-z", "--no-renames", "--ignore-submodules", "HEAD", "--")
    untracked = git(root, "ls-files", "-z", "--others", "--exclude-standard")
    names = (tracked.stdout + untracked.stdout).decode("utf-8", "surrogateescape").split("\0")
    return [name for name in names if name]


def _bring(source: Path, target: Path) -> None:
    if source.is_symlink() or source.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.exists():
            target.unlink()
        shutil.copy2(source, target, follow_symlinks=False)
    elif not source.exists() and (target.is_symlink() or target.is_file()):
        target.unlink()  # deleted in the working tree


def _release(scratch: Scratch, keep: bool) -> None:
    """The copy removed, or kept as a plain folder; either way git forgets the worktree."""
    if scratch.worktree and not keep:
        git(scratch.root, "worktree", "remove", "--force", str(scratch.tree))
    (scratch.tree / ".git").unlink(missing_ok=True)  # kept: a plain folder
    if not keep:
        shutil.rmtree(scratch.top, ignore_errors=True)
    _forget(scratch)


def _forget(scratch: Scratch) -> None:
    """Git's record of any worktree in the scratch folder removed (one kept, or
    one whose ``worktree add`` was interrupted): what ``git worktree prune``
    does, for these only, so that the user's own stale worktrees stay listed."""
    common = git(scratch.root, "rev-parse", "--path-format=absolute", "--git-common-dir")
    records = Path(common.stdout.decode().strip()) / "worktrees" if common.returncode == 0 else None
    for record in sorted(records.iterdir()) if records is not None and records.is_dir() else ():
        gitdir = record / "gitdir"
        if gitdir.is_file() and Path(gitdir.read_text().strip()).is_relative_to(scratch.top):
            shutil.rmtree(record, ignore_errors=True)
    if records is not None and records.is_dir() and not any(records.iterdir()):
        records.rmdir()  # as prune leaves it
