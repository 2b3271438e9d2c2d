"""What git knows: files changed since a ref or staged, and where hooks live.

GitPython, imported only when a git option is used: a plain run never pays
for it.
"""

from __future__ import annotations

from pathlib import Path


class GitError(Exception):
    pass


def repo_at(start: Path):
    import git

    try:
        return git.Repo(start if start.is_dir() else start.parent, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as error:
        raise GitError(f"{start}: not inside a git repository") from error


def _git(repo, *args: str, missing: str = "") -> list[str]:
    """Run ``git args`` (``-z`` output), as a list of paths. A failure is a
    GitError; ``missing`` replaces git's message when there is none."""
    import git

    try:
        out = repo.git.execute(["git", *args], strip_newline_in_stdout=False)
    except git.GitCommandError as error:
        message = (error.stderr or str(error)).strip()
        if message.startswith("stderr: '") and message.endswith("'"):  # GitPython's quoting
            message = message[len("stderr: '") : -1].strip()
        raise GitError(missing or f"git {' '.join(args)}: {message}") from error
    return [name for name in out.split("\0") if name]


def commit_of(repo, ref: str) -> str:
    """The commit ``ref`` names, as a full hash. ``--end-of-options``: a ref
    from the user (``--output=FILE``, say) never reaches git as an option."""
    names = _git(
        repo,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{ref}^{{commit}}",
        missing=f"{ref!r} is not a commit in this repository",
    )
    return names[0].strip()


def is_commit(repo, ref: str) -> bool:
    try:
        commit_of(repo, ref)
    except GitError:
        return False
    return True


def changed_files(start: Path, since: str | None = None, staged: bool = False, untracked: bool = True) -> set[Path]:
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
    """Files staged, added or modified."""
    return staged_changes(repo)[0]


def staged_changes(repo) -> tuple[list[str], list[str]]:
    """Files staged: (added or modified, removed); a move is both."""
    return _by_status(_git(repo, "diff", "--cached", "--name-status", "-z", "--no-renames", "--"))


def changes_between(repo, base: str, commit: str) -> tuple[list[str], list[str]]:
    """Files from commit ``base`` to ``commit`` (both verified): (added or modified, removed)."""
    return _by_status(_git(repo, "diff", "--name-status", "-z", "--no-renames", base, commit, "--"))


def _by_status(entries: list[str]) -> tuple[list[str], list[str]]:
    """``--name-status -z --no-renames`` output, a status then a path each -> (the others, removed)."""
    kept, removed = [], []
    for status, name in zip(entries[::2], entries[1::2]):
        (removed if status == "D" else kept).append(name)
    return kept, removed


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
        chunk = items[start : start + batch]
        out = read_blobs(repo, [blob for _, blob in chunk])
        for (path, _), data in zip(chunk, out):
            target = dest / path
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            target.write_bytes(data)


def read_blobs(repo, hashes: list[str]) -> list[bytes]:
    """The contents of these blobs, in order, from one ``git cat-file --batch``."""
    import subprocess

    run = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=repo.working_tree_dir or repo.git_dir,
        input="".join(f"{h}\n" for h in hashes).encode(),
        capture_output=True,
    )
    if run.returncode:
        raise GitError(f"git cat-file --batch: {run.stderr.decode(errors='replace').strip()}")
    data, at, found = run.stdout, 0, []
    for _ in hashes:
        end = data.index(b"\n", at)
        size = int(data[at:end].split()[2])  # "<hash> blob <size>"
        found.append(data[end + 1 : end + 1 + size])
        at = end + 1 + size + 1
    return found


def hooks_dir(start: Path) -> Path:
    """The repository's hooks folder, wherever ``core.hooksPath`` puts it."""
    repo = repo_at(start)
    path = repo.git.rev_parse("--git-path", "hooks")  # relative to the top, or absolute
    return (Path(repo.working_tree_dir) / path).resolve()
