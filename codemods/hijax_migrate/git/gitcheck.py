"""What a git hook checks: the content that moves, read from git's objects.

pre-push checks, for each ref pushed, the files that changed between the
remote's commit and the pushed one; pre-commit checks the staged files.
Neither reads the working tree: the tree being pushed or committed is
written out of git (its Python files, so that bases resolve as they are in
that tree, the files the command line reads for pins and configuration,
requirement files pulled in by ``-r`` included, and the documents that
changed) to a copy kept between runs (``hook_tree``) and checked there, as
``--check --force-exclude`` would, standing in the copy's top: the changed
files, and every file of their class families (``family``).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from ..command.usage import settings_of
from ..sources import gitrepo
from ..sources.files import SOURCES, is_candidate_text
from . import family, hook_tree

ZEROS = frozenset("0")


@dataclass(frozen=True)
class Check:
    what: str  # the ref pushed, or "the index"
    tree: str  # a commit or tree hash
    names: tuple[str, ...]  # the files to check, relative to the top
    removed: tuple[str, ...] = ()  # the files it removes


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
        names, removed = gitrepo.changes_between(repo, base, local) if base else (gitrepo.tree_files(repo, local), ())
        checks.append(Check(local_ref, local, tuple(names), tuple(removed)))
    return checks


def staged(repo) -> list[Check]:
    names, removed = gitrepo.staged_changes(repo)
    return [Check("the index", gitrepo.index_tree(repo), tuple(names), tuple(removed))]


def run_checks(repo, checks: list[Check]):
    """(check, outcomes) for each check that has Python, pins or configuration to look at."""
    for check in checks:
        if check.names or check.removed:
            yield check, _check_tree(repo, check.tree, list(check.names), check.removed)


def _check_tree(repo, tree: str, names: list[str], removed: tuple[str, ...] = ()):
    """The outcomes of the changed files and of their families, checked in
    a copy of the tree holding every file the command line would read; a
    change to a pin or the configuration puts every file in question."""
    from ..command.session import Session

    files = gitrepo.tree_files(repo, tree)
    settings = settings_files(repo, files)
    python = [path for path in files if path.endswith((".py", ".pyi"))]
    # A file removed is no longer in the tree to be told a pin, or a requirement
    # pulled in by ``-r`` (any name): one that is no source may have been.
    pin_removed = any(not name.endswith(SOURCES) for name in removed)
    names = [name for name in names if name in files and (name.endswith(SOURCES) or name in settings)]
    if pin_removed or any(name in settings for name in names):
        names = [path for path in files if path.endswith(SOURCES)]
    elif not _may_matter(repo, files, names):
        return []
    wanted = {path: blob for path, blob in files.items() if path in names or path in python or path in settings}
    with hook_tree.checked_out(repo, wanted) as (top, kept):
        targets = [str(top / name) for name in family.related(top, names, python) if name.endswith(SOURCES)]
        # As ``--check --quiet --force-exclude`` run from the copy's top. A
        # temporary folder never comes back: the cache would only fill up.
        # ``family.related`` chose the files: a sibling's verdict is not the push's.
        settings = settings_of(
            paths=targets, check=True, quiet=True, force_exclude=True, no_cache=not kept, family_files=False, here=top
        )
        outcomes = Session.start(settings).migrate()
    for outcome in outcomes:
        outcome.file = Path(outcome.file).relative_to(top).as_posix()
    return outcomes


def settings_files(repo, files: dict[str, str]) -> set[str]:
    """The tree's files the command line reads for pins and configuration
    (``pins.is_read``), and the requirement files they pull in with ``-r``."""
    from ..releases import pins

    found = {path for path in files if pins.is_read(path.rpartition("/")[2])}
    pending = sorted(found)
    while pending:
        batch, pending = pending, []
        for path, text in zip(batch, gitrepo.read_blobs(repo, [files[path] for path in batch])):
            folder = posixpath.dirname(path)
            for name in pins.includes(text.decode("utf-8", "replace")):
                included = posixpath.normpath(posixpath.join(folder, name))
                if included in files and included not in found:
                    found.add(included)
                    pending.append(included)
    return found


def _may_matter(repo, files: dict[str, str], names: list[str]) -> bool:
    """Can the changed files change any file's verdict? One that names a
    rule's word, or defines a class (a base of a family elsewhere), can:
    only then is the tree written out."""
    from ..engine.triage import every_word

    words = every_word()
    texts = gitrepo.read_blobs(repo, [files[name] for name in names])
    return any(
        b"class" in text or is_candidate_text(text, words, not name.endswith(".ipynb"))
        for name, text in zip(names, texts)
    )
