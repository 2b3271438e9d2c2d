"""Which files a run takes, as its ``Settings`` say: the paths given,
walked; the exclude and include patterns, relative to the project root;
git's changed or staged files. Each file once, however often it is named.

Symlinks (docs/safety.md): a path named on the command line whose real path
is outside the project root (and outside the folder it is named in) is
skipped with a warning naming it, as black refuses such paths; a walk follows
no link out of the folder walked (``sources.files.walk``), and follows a link
inside it once. So no run, ``--verify``'s copy included, writes a byte
outside the project."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import UsageError
from ..core.line_breaks import as_line_feeds
from ..sources.files import SOURCES
from ..sources.files import gitignore_spec as spec
from .state import Job

if TYPE_CHECKING:
    from ..core.settings import Settings
    from ..sources.files import Listings


class _Rooted:
    """Patterns relative to the project root, asked about paths relative to
    a folder being walked: the folder's place under the root goes first."""

    def __init__(self, spec, prefix: str):
        self.spec, self.prefix = spec, prefix

    def match_file(self, rel: str) -> bool:
        return self.spec.match_file(self.prefix + rel)


def under_root(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root``, in posix form; None outside it."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return None


def _walk_spec(exclude, folder: Path, root: Path):
    rel = under_root(folder, root)
    return None if exclude is None else _Rooted(exclude, "" if rel in (None, ".") else rel + "/")


def _named_rel(job: Job, root: Path) -> str:
    return under_root(job.path, root) or job.display


def jobs_for(settings: Settings, listings: Listings | None = None) -> list[Job]:
    """The run's files (``settings`` with the configuration applied); a
    folder's walk, kept in ``listings``, serves the run's searches of the tree too."""
    from ..sources.files import Listings

    listings = listings if listings is not None else Listings()
    _check_patterns(settings)
    root, exclude = settings.root, spec(settings.excludes)
    jobs: list[Job] = []
    for name in settings.paths:
        path = Path(name)
        if _outside(path, root):
            _warn(f"{name}: a symbolic link to {os.path.realpath(path)}, outside the project ({root}); skipped")
        elif os.path.isdir(path):
            jobs += _walked(path, _walk_spec(exclude, path, root), listings)
        elif os.path.lexists(path) and not name.endswith(SOURCES):  # as ruff: a warning, and on
            _warn(f"{name}: not a Python file, a notebook or Markdown ({', '.join(SOURCES)}); skipped")
        elif os.path.lexists(path) or _unreachable(path):  # the latter: reported by its read
            job = Job(path, path.as_posix(), None)
            if not (settings.force_exclude and excluded(job, exclude, root)):
                jobs.append(job)
        else:
            raise UsageError(f"{name}: no such file or directory")
    include = spec(settings.include)
    if include is not None:
        jobs = [job for job in jobs if include.match_file(_named_rel(job, root))]
    if settings.changed_since is not None or settings.staged:
        jobs = _changed(jobs, settings)
    if len(settings.paths) == 1 and os.path.isdir(settings.paths[0]):  # one walk names each file once
        return sorted(jobs, key=lambda job: job.display)
    return _once(jobs)


def _check_patterns(settings: Settings) -> None:
    """A pattern given that pathspec cannot read is a usage error (the
    configuration's are checked where it is read)."""
    from ..sources.files import pattern_error

    for pattern in (*settings.excludes, *settings.include):
        if pattern_error(pattern):
            raise UsageError(f"--exclude/--include {pattern!r} is not a pattern ({pattern_error(pattern)})")


def chosen_in_part(settings: Settings) -> bool:
    """Are the run's files chosen one by one (named, or by git), not whole folders?"""
    return settings.changed_since is not None or settings.staged or any(os.path.isfile(p) for p in settings.paths)


def with_families(jobs: list[Job], settings: Settings, options, listings: Listings) -> tuple[list[Job], list]:
    """``_with_families``, and a note on each gitignored file a family of the run leaves out."""
    jobs, notes = _with_families(jobs, settings, options, listings)
    return jobs, notes + ignored_members(jobs, listings.left_out)


def _with_families(jobs: list[Job], settings: Settings, options, listings: Listings) -> tuple[list[Job], list]:
    """Where the files are chosen in part, ``jobs`` and the other files of their
    classes' families (``family_files``), but those excluded; a note on each taken."""
    if not jobs or not chosen_in_part(settings) or not settings.family_files:
        return jobs, []
    from .family_files import widen

    widened, notes = widen(jobs, options, listings)
    exclude = spec(settings.excludes)
    keep = [job for job in widened[len(jobs) :] if not excluded(job, exclude, settings.root)]
    named = {os.path.abspath(name) for name in settings.paths}
    for job in [job for job in keep if _outside(job.path, settings.root)]:
        keep.remove(job)
        if os.path.abspath(job.path) in named:
            continue  # said already
        _warn(
            f"{job.display}: of a family in the run, but a symbolic link to {os.path.realpath(job.path)}, "
            f"outside the project ({settings.root}); skipped, so its family is not migrated whole"
        )
    kept = {job.display for job in keep}
    return _once(jobs + keep), [note for note in notes if note.file in kept]


def ignored_members(jobs: list[Job], left_out: list[Path]) -> list:
    """A note for each gitignored Python file under the folders named whose
    class extends (by name, through any depth) a class of a run file that
    names a rule's word: that family is migrated without it. On the run's
    file it extends, in every format; naming the file takes it in."""
    from ..tree.class_links import Links, classes, closure, file_bytes

    ignored_files = _ignored_files(left_out)
    if not ignored_files:
        return []  # the usual case: nothing to tell apart from the run's files
    folders: dict[str, str] = {}
    named = {_real(job.path, folders) for job in jobs}
    left = [path for path in ignored_files if _real(path, folders) not in named]
    ignored = {f"ignored:{path.as_posix()}": file_bytes(path) for path in left}
    if not any(bases for data in ignored.values() for _, bases in classes(data)):
        return []  # no class there extends anything: the run's files are not read again
    from ..core.model import Finding
    from ..engine.triage import every_word
    from ..sources.files import is_candidate_text

    texts = {f"job:{job.display}": file_bytes(job.path) for job in jobs if job.path.suffix == ".py"} | ignored
    links, words, notes = Links(texts), every_word(), []
    for key in sorted(k for k in texts if k.startswith("ignored:")):
        family = [k for k in closure({key}, links.above) if k.startswith("job:")]
        if not any(is_candidate_text(texts[k], words) for k in family):
            continue
        direct = sorted(k for k in links.above(key) if k.startswith("job:")) or sorted(family)
        name = key.partition(":")[2]
        message = (
            f"{name} is gitignored, so not in the run, yet a class there extends a class of this file's hijax "
            f"family: the family is migrated without it; name {name} on the command line to migrate it too"
        )
        bases = {base for _, found in classes(texts[key]) for base in found}
        notes.append(Finding(direct[0].partition(":")[2], _class_line(texts[direct[0]], bases), message))
    return notes


def _class_line(data: bytes, names: set[bytes]) -> int:
    """The line defining the first of ``names`` in ``data``; 1 if none does."""
    data = as_line_feeds(data)  # ``^`` and the count of lines, as Python's
    for match in re.finditer(rb"^[ \t\f]*class(?:[ \t\f]|\\\r?\n)+((?:\w|[\x80-\xff])+)", data, re.M):
        if match.group(1) in names:
            return data.count(b"\n", 0, match.start()) + 1
    return 1


def _ignored_files(left_out: list[Path]) -> list[Path]:
    """The Python files git's ignores left out of the run's walks, those in ignored folders included."""
    from ..sources.files import walk

    files = [path for path in left_out if path.suffix == ".py" and not os.path.isdir(path)]
    for inner in (path for path in left_out if os.path.isdir(path)):
        files += [path for path in walk(inner) if path.suffix == ".py"]
    return sorted(set(files))


def _walked(folder: Path, rooted, listings: Listings) -> list[Job]:
    """The folder's files, and each folder in it that cannot be listed (a
    job whose read says so: never a walk that looks complete and is not)."""
    from ..sources.files import walk

    unreadable: list[Path] = []
    outside: list[Path] = []
    ignored: list[Path] = []
    walked = walk(folder, rooted, unreadable, outside, ignored) if rooted is not None else listings.files(folder)
    unreadable = unreadable if rooted is not None else listings.unreadable(folder)
    listings.left_out += ignored if rooted is not None else listings.ignored(folder)
    for link in outside if rooted is not None else listings.outside(folder):
        _warn(f"{link.as_posix()}: a symbolic link to {os.path.realpath(link)}, outside {folder}; skipped")
    return [Job(p, p.as_posix(), folder) for p in walked + unreadable]


def _outside(path: Path, root: Path | None) -> bool:
    """Does ``path`` lead, through a link, out of the project root (and out
    of the folder it is named in)?"""
    if root is None or not os.path.lexists(path):
        return False
    real = os.path.realpath(path)
    return not any(_within(real, os.path.realpath(folder)) for folder in (root, path.parent))


def _within(real: str, folder: str) -> bool:
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


def _warn(message: str) -> None:
    """A path skipped: one line, and the run goes on (exit 0 for it)."""
    print(f"warning: {message}", file=sys.stderr)


def _unreachable(path: Path) -> bool:
    """A path whose existence cannot be asked (a folder on the way cannot be searched)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return False


def excluded(job: Job, exclude, root: Path) -> bool:
    return exclude is not None and exclude.match_file(_named_rel(job, root))


def _once(jobs: list[Job]) -> list[Job]:
    """One job a file (by its real path: a file and its folder, or a link and
    its target, name one file), the first naming kept, sorted for display."""
    seen: dict[str, Job] = {}
    folders: dict[str, str] = {}
    for job in jobs:
        seen.setdefault(_real(job.path, folders), job)
    return sorted(seen.values(), key=lambda job: job.display)


def _real(path: Path, folders: dict[str, str]) -> str:
    """``os.path.realpath(path)``, each folder resolved once: realpath costs a
    system call a path component, and a tree's files share their folders."""
    folder, name = os.path.split(os.fspath(path))
    if name in ("", ".", "..") or os.path.islink(path):
        return os.path.realpath(path)
    if folder not in folders:
        folders[folder] = os.path.realpath(folder or ".")
    return os.path.join(folders[folder], name)


def _changed(jobs: list[Job], settings: Settings) -> list[Job]:
    from ..sources.gitrepo import GitError, changed_files

    start = Path(settings.paths[0])
    try:
        changed = changed_files(start, settings.changed_since, settings.staged)
    except GitError as error:
        raise UsageError(str(error)) from error
    folders: dict[str, str] = {}
    real = {os.fspath(path) for path in changed}
    return [job for job in jobs if _real(job.path, folders) in real]
