"""What git knows: files changed since a ref or staged, and where hooks live.

git itself is asked, one command at a time (GitPython's import alone cost
a pre-push run a tenth of a second).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path


class GitError(Exception):
    pass


@dataclass(frozen=True)
class Repo:
    working_tree_dir: str | None  # None: a bare repository
    git_dir: str


def repo_at(start: Path) -> Repo:
    """The repository holding ``start`` (a folder or a file in one)."""
    folder = start if start.is_dir() else start.parent
    if not folder.is_dir():
        raise GitError(f"{start}: not inside a git repository")
    try:
        bare, git_dir = _run(folder, "rev-parse", "--is-bare-repository", "--absolute-git-dir").splitlines()
        top = None if bare == "true" else _run(folder, "rev-parse", "--show-toplevel").rstrip("\n")
    except OSError as error:
        raise GitError(f"cannot run git: {error}") from error
    except (GitError, ValueError) as error:
        raise GitError(f"{start}: not inside a git repository") from error
    return Repo(top, git_dir)


def _run(folder, *args: str) -> str:
    """``git args`` run in ``folder``: its output (paths as the file system
    names them); GitError with git's message when it fails."""
    run = subprocess.run(["git", *args], cwd=folder, capture_output=True, stdin=subprocess.DEVNULL)
    if run.returncode:
        raise GitError(run.stderr.decode(errors="replace").strip())
    return os.fsdecode(run.stdout)


def _git(repo: Repo, *args: str, missing: str = "") -> list[str]:
    """Run ``git args`` (``-z`` output), as a list of paths. A failure is a
    GitError; ``missing`` replaces git's message when there is none."""
    try:
        out = _run(repo.working_tree_dir or repo.git_dir, *args)
    except OSError as error:  # no git at all
        raise GitError(f"git {' '.join(args)}: {error}") from error
    except GitError as error:
        raise GitError(missing or f"git {' '.join(args)}: {error}") from error
    return [name for name in out.split("\0") if name]


def commit_of(repo, ref: str) -> str:
    """The commit ``ref`` names, as a full hash. ``--end-of-options``: a ref
    from the user (``--output=FILE``, say) never reaches git as an option."""
    names = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                 missing=f"{ref!r} is not a commit in this repository")
    return names[0].strip()


def is_commit(repo, ref: str) -> bool:
    try:
        commit_of(repo, ref)
    except GitError:
        return False
    return True


def changed_files(start: Path, since: str | None = None, staged: bool = False,
                  untracked: bool = True) -> set[Path]:
    """Files git reports as changed, resolved: since ``since`` (committed,
    staged or not, and untracked unless told otherwise) and/or staged."""
    repo = repo_at(start)
    names: list[str] = []
    if staged:
        names += staged_names(repo)
    if since is not None:
        names += _git(repo, "diff", "--name-only", "-z", "--diff-filter=d", commit_of(repo, since), "--")
        if untracked:
            names += _git(repo, "ls-files", "-z", "--others", "--exclude-standard", "--")
    top = Path(repo.working_tree_dir)
    return {(top / name).resolve() for name in names}


def staged_names(repo) -> list[str]:
    return _git(repo, "diff", "--cached", "--name-only", "-z", "--diff-filter=d", "--")


def changed_between(repo, base: str, commit: str) -> list[str]:
    """Files added or modified from commit ``base`` to ``commit`` (both verified)."""
    return _git(repo, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", base, commit, "--")


def index_tree(repo) -> str:
    """The index as a tree object: the content a commit would record."""
    return _git(repo, "write-tree")[0].strip()


def merge_base(repo, commit: str, remote: str) -> str | None:
    """Where ``commit`` leaves the remote's default branch (its HEAD, else
    main or master as last fetched); None when there is no such branch or
    no common history."""
    for branch in ("HEAD", "main", "master"):
        ref = f"refs/remotes/{remote}/{branch}"
        if is_commit(repo, ref):
            try:
                return _git(repo, "merge-base", commit, commit_of(repo, ref))[0].strip()
            except GitError:  # unrelated histories
                return None
    return None


# Tree entries worth writing out: regular files (not links, not submodules).
_BLOB_MODES = ("100644", "100755")


def tree_files(repo, tree: str) -> dict[str, str]:
    """Path -> blob hash of each regular file in ``tree`` (a commit or tree)."""
    files = {}
    for entry in _git(repo, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", tree):
        meta, _, path = entry.partition("\t")
        mode, kind, blob = meta.split()
        if kind == "blob" and mode in _BLOB_MODES and _safe(path):
            files[path] = blob
    return files


def _safe(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and not {"", ".", "..", ".git"} & set(parts)


def write_blobs(repo, blobs: dict[str, str], dest: Path, batch: int = 1000) -> None:
    """Write each blob (path -> hash) under ``dest``, from git's objects: one
    ``git cat-file --batch`` a thousand blobs (one a blob costs a round trip)."""
    items, made = list(blobs.items()), set()
    for start in range(0, len(items), batch):
        chunk = items[start:start + batch]
        out = read_blobs(repo, [blob for _, blob in chunk])
        for (path, _), data in zip(chunk, out):
            target = dest / path
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            target.write_bytes(data)


def read_blobs(repo, hashes: list[str]) -> list[bytes]:
    """The contents of these blobs, in order, from one ``git cat-file --batch``."""
    run = subprocess.run(["git", "cat-file", "--batch"], cwd=repo.working_tree_dir or repo.git_dir,
                         input="".join(f"{h}\n" for h in hashes).encode(), capture_output=True)
    if run.returncode:
        raise GitError(f"git cat-file --batch: {run.stderr.decode(errors='replace').strip()}")
    data, at, found = run.stdout, 0, []
    for _ in hashes:
        end = data.index(b"\n", at)
        size = int(data[at:end].split()[2])  # "<hash> blob <size>"
        found.append(data[end + 1:end + 1 + size])
        at = end + 1 + size + 1
    return found


def hooks_dir(start: Path) -> Path:
    """The repository's hooks folder, wherever ``core.hooksPath`` puts it."""
    repo = repo_at(start)
    path = _git(repo, "rev-parse", "--git-path", "hooks")[0].rstrip("\n")  # relative to the top, or absolute
    return (Path(repo.working_tree_dir or repo.git_dir) / path).resolve()
