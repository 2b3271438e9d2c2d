"""What a git hook checks: the content that moves, read from git's objects.

pre-push checks, for each ref pushed, the files that changed between the
remote's commit and the pushed one; pre-commit checks the staged files.
Neither reads the working tree: the tree being pushed or committed is
written out of git (its Python files, so that bases resolve as they are in
that tree, its pins and configuration, and the documents that changed) to a
copy kept between runs (``hook_tree``) and checked there, as ``--check
--force-exclude`` would.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..command.usage import build_parser
from ..sources import gitrepo
from ..sources.files import SOURCES, is_candidate_text
from . import hook_tree

ZEROS = frozenset("0")
# Read for pins and configuration wherever they are in the tree.
_SETTINGS = ("pyproject.toml", "setup.cfg")


@dataclass(frozen=True)
class Check:
    what: str  # the ref pushed, or "the index"
    tree: str  # a commit or tree hash
    names: tuple[str, ...]  # the files to check, relative to the top


def pushed(repo, lines: list[str], remote: str) -> list[Check]:
    """One check for each ref git pushes (its stdin lines). A deleted ref, or
    a tag of a tree or blob, pushes no commit. A new branch, or one whose
    remote commit is unknown here, is compared with where it leaves the
    remote's default branch, or checked whole when it shares no history
    with it."""
    checks = []
    for line in lines:
        parts = line.split()
        if len(parts) != 4 or set(parts[1]) <= ZEROS or not gitrepo.is_commit(repo, parts[1]):
            continue  # malformed, a deleted ref, or a tag of a tree or blob: no commit to check
        local_ref, local, remote_sha = parts[0], gitrepo.commit_of(repo, parts[1]), parts[3]
        if not set(remote_sha) <= ZEROS and gitrepo.is_commit(repo, remote_sha):
            base = gitrepo.commit_of(repo, remote_sha)
        else:
            base = gitrepo.merge_base(repo, local, remote)
        names = gitrepo.changed_between(repo, base, local) if base else list(gitrepo.tree_files(repo, local))
        checks.append(Check(local_ref, local, tuple(names)))
    return checks


def staged(repo) -> list[Check]:
    return [Check("the index", gitrepo.index_tree(repo), tuple(gitrepo.staged_names(repo)))]


def run_checks(repo, checks: list[Check]):
    """(check, outcomes) for each check that has Python to look at."""
    for check in checks:
        names = [name for name in check.names if name.endswith(SOURCES)]
        if names:
            yield check, _check_tree(repo, check.tree, names)


def _check_tree(repo, tree: str, names: list[str]):
    from ..command.session import Session

    files = gitrepo.tree_files(repo, tree)
    names = _candidates(repo, files, names)
    if not names:
        return []
    wanted = {path: blob for path, blob in files.items()
              if path in names or path.endswith((".py", ".pyi")) or _is_settings(path)}
    with hook_tree.checked_out(repo, wanted) as (top, kept):
        targets = [str(top / name) for name in names]
        with _inside(top):
            # A temporary folder never comes back: the cache would only fill up.
            flags = ["--check", "--quiet", "--force-exclude"] + ([] if kept else ["--no-cache"])
            outcomes = Session.from_args(build_parser().parse_args([*flags, "--", *targets])).migrate()
    for outcome in outcomes:
        outcome.file = Path(outcome.file).relative_to(top).as_posix()
    return outcomes


def _candidates(repo, files: dict[str, str], names: list[str]) -> list[str]:
    """The files that name a word a rewrite needs, as the command line's
    pre-filter decides: only then is the tree written out."""
    from ..engine.triage import every_word

    words, names = every_word(), [name for name in names if name in files]
    texts = gitrepo.read_blobs(repo, [files[name] for name in names])
    return [name for name, text in zip(names, texts) if is_candidate_text(text, words, not name.endswith(".ipynb"))]


def _is_settings(path: str) -> bool:
    name = path.rpartition("/")[2]
    return name in _SETTINGS or (name.startswith("requirements") and name.endswith(".txt"))


@contextmanager
def _inside(folder: Path):
    """Run in ``folder``: files named alone import from where the tool runs."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)
