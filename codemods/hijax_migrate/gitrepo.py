"""What git knows: files changed since a ref or staged, and where hooks live.

GitPython, imported only when a git option is used: a plain run never pays
for it.
"""

from __future__ import annotations

from pathlib import Path


class GitError(Exception):
    pass


def _repo(start: Path):
    import git

    try:
        return git.Repo(start if start.is_dir() else start.parent, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as error:
        raise GitError(f"{start}: not inside a git repository") from error


def _git(repo, *args: str) -> list[str]:
    """Run ``git args`` (``-z`` output), as a list of paths."""
    import git

    try:
        out = repo.git.execute(["git", *args], strip_newline_in_stdout=False)
    except git.GitCommandError as error:
        message = (error.stderr or str(error)).strip()
        if message.startswith("stderr: '") and message.endswith("'"):  # GitPython's quoting
            message = message[len("stderr: '"):-1].strip()
        raise GitError(f"git {' '.join(args)}: {message}") from error
    return [name for name in out.split("\0") if name]


def changed_files(start: Path, since: str | None = None, staged: bool = False,
                  untracked: bool = True) -> set[Path]:
    """Files git reports as changed, resolved: since ``since`` (committed,
    staged or not, and untracked unless told otherwise) and/or staged."""
    repo = _repo(start)
    names: list[str] = []
    if staged:
        names += _git(repo, "diff", "--cached", "--name-only", "-z", "--diff-filter=d")
    if since is not None:
        names += _git(repo, "diff", "--name-only", "-z", "--diff-filter=d", since, "--")
        if untracked:
            names += _git(repo, "ls-files", "-z", "--others", "--exclude-standard")
    top = Path(repo.working_tree_dir)
    return {(top / name).resolve() for name in names}


def hooks_dir(start: Path) -> Path:
    """The repository's hooks folder, wherever ``core.hooksPath`` puts it."""
    repo = _repo(start)
    path = repo.git.rev_parse("--git-path", "hooks")  # relative to the top, or absolute
    return (Path(repo.working_tree_dir) / path).resolve()
