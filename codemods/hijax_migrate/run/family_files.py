"""The files a run over part of a tree takes beside those chosen: the rest of
their classes' families.

A value rule renamed in a base needs its subclasses' rules and ``super()``
calls renamed with it, and a subclass's rename needs its base's: a run over
one file of a family (named alone, or chosen by git with ``--changed-since``
or ``--staged``) would leave the tree half-migrated, and a later run could
no longer tell which rule a call meant. So where the files are chosen, the
tree's other files holding an ancestor or a subclass of a chosen file's
hijax classes join the run, each with a note (in every output format).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from ..analysis.families import Classes, ancestors, descendants
from ..analysis.scopes import defines_rules
from ..core.line_breaks import as_line_feeds
from ..core.model import Finding, Options
from ..sources.files import Listings
from ..tree.reads import TreeReads
from .state import Job, roots_of, searched_roots


def widen(jobs: list[Job], options: Options, listings: Listings) -> tuple[list[Job], list[Finding]]:
    """``jobs``, then a job for each file holding a member of their families; a note on each."""
    from ..analysis.index import Index
    from ..analysis.project import view_of

    reads = TreeReads(None, listings)
    roots = roots_of(jobs, reads.packages)
    index = Index(options.extra_bases, roots, reads, searched_roots(roots, jobs, reads.packages))
    project = view_of(index)  # one view for all: nothing is rewritten
    taken = {os.path.realpath(job.path) for job in jobs}
    added: dict[str, tuple[Path, str, str]] = {}
    for job in jobs:
        if job.path.suffix != ".py":
            continue
        for member, reason in _members(project, job):
            path = project.find(member.module)
            real = os.path.realpath(path) if path is not None else None
            if real is not None and real not in taken and real not in added:
                added[real] = (path, member.qualname, f"{reason} in {job.display}")
    relative = not any(Path(job.display).is_absolute() for job in jobs)  # shown as the chosen files are
    extra = [Job(path, _shown(path, relative), None) for path, _, _ in added.values()]
    notes = [
        Finding(
            job.display,
            _class_line(reads, path, name),
            f"{name}: taken into the run too: it is {why}, and a family is migrated whole",
        )
        for job, (path, name, why) in zip(extra, added.values())
    ]
    index.close()
    return jobs + extra, notes


def _class_line(reads: TreeReads, path: Path, qualname: str) -> int:
    """The line of the class statement (or ``Name = type(...)``) of ``qualname`` in ``path``; 1 if not found."""
    name = qualname.rsplit(".", 1)[-1]
    data = as_line_feeds(reads.read(path) or b"")  # ``^`` and the count of lines, as Python's
    found = re.search(rf"^[ \t\f]*(class\s*\\?\s*{name}\b|{name}\s*=\s*type\b)".encode(), data, re.M)
    return data.count(b"\n", 0, found.start()) + 1 if found else 1


def _shown(path: Path, relative: bool) -> str:
    """``relative``: as a file named from where the tool runs, if under it; else whole."""
    rel = os.path.relpath(path) if relative else ".."
    return Path(rel).as_posix() if not rel.startswith("..") else Path(os.path.abspath(path)).as_posix()


def _members(project, job: Job):
    """The classes of other modules in the families of ``job``'s hijax classes, and how each is tied."""
    for info, member, tie in _ties(project, job):
        yield member, f"{tie} of {info.qualname}"


def _ties(project, job: Job):
    """(a hijax class of ``job``, a class of another module in its family, "a base" or "a subclass")."""
    summary = project.summary(project.module_name(job.path))
    if summary is None:
        return
    here = Classes(summary.every_class)
    for info in summary.every_class:
        if not (project.class_kind(info).is_primitive or defines_rules(info)):
            continue
        for above in ancestors(project, info):
            if above.module != info.module and defines_rules(above):
                yield info, above, "a base"
        for below in descendants(project, info, here):
            if below.module != info.module:
                yield info, below, "a subclass"


def shared_ignores(
    jobs: list[Job], options: Options, listings: Listings, in_part: bool
) -> tuple[Options, list[Finding]]:
    """``options`` whose per-file-ignores reach across families: a rule a file's
    patterns skip is skipped in every file of its classes' families, and of
    theirs in turn (a family is migrated whole); a note in each file of the
    run that skips a rule so. ``in_part``: the run's files are chosen in part,
    and their families may reach files outside it that skip a rule: every
    file's families are walked (as ``widen`` walks them), else those of the
    files that skip one."""
    from ..analysis.index import Index
    from ..analysis.project import view_of

    reads = TreeReads(None, listings)
    own = {os.path.realpath(job.path): _own(options, job, reads) for job in jobs}
    if not in_part and not any(own.values()):
        return options, []
    roots = roots_of(jobs, reads.packages)
    index = Index(options.extra_bases, roots, reads, searched_roots(roots, jobs, reads.packages))
    spread = _Spread(view_of(index), jobs, options.per_file, own)
    gained = spread.walk([job for job in jobs if in_part or own[os.path.realpath(job.path)]])
    index.close()
    shared = tuple((real, tuple(sorted(codes))) for real, codes in sorted(gained.items()))
    notes = [_shared_note(reads, spread.jobs[real], codes) for real, codes in gained.items() if real in spread.jobs]
    return replace(options, per_file=replace(options.per_file, shared=shared)), notes


def _own(options: Options, job: Job, reads: TreeReads) -> tuple[str, ...]:
    """The codes ``job``'s patterns skip, where any rule may act on it: a file
    that names no rule's word is never acted on, and what it skips is moot."""
    from ..engine.triage import every_word

    codes = options.per_file.own(job.path)
    data = reads.read(job.path) if codes else None
    # each word's name as bytes (``bound dce``: ``dce``): a superset of what the pre-filter reads
    return codes if data is not None and any(word.split()[-1] in data for word in every_word()) else ()


class _Spread:
    """The codes files skip, spread both ways over their classes' families to a
    fixed point; ``gained``: real path -> each code a file takes so, with why
    (its class, the class of the family there, that file)."""

    def __init__(self, project, jobs: list[Job], per_file, own: dict[str, tuple[str, ...]]):
        self.project, self.per_file = project, per_file
        self.jobs = {os.path.realpath(job.path): job for job in jobs}
        self.codes = {real: set(found) for real, found in own.items()}
        self.gained: dict[str, dict[str, tuple]] = {}
        self.relative = not any(Path(job.display).is_absolute() for job in jobs)  # as ``widen`` shows them

    def walk(self, queue: list[Job]) -> dict[str, dict[str, tuple]]:
        while queue:
            job = queue.pop(0)
            for here, member, _ in _ties(self.project, job):
                path = self.project.find(member.module)
                if path is not None:
                    queue += self._tie(job, here.qualname, path, member.qualname)
        return self.gained

    def _tie(self, job: Job, here: str, path: Path, there: str) -> list[Job]:
        """Each of the two files takes the other's codes; the files that took any, to walk again."""
        real = os.path.realpath(path)
        other = self.jobs.get(real) or Job(path, _shown(path, self.relative), None)
        self.codes.setdefault(real, set(self.per_file.own(path)))
        again = []
        for taker, giver, mine, theirs in ((other, job, there, here), (job, other, here, there)):
            taking, giving = (self.codes[os.path.realpath(j.path)] for j in (taker, giver))
            for code in sorted(giving - taking):
                self.gained.setdefault(os.path.realpath(taker.path), {})[code] = (mine, theirs, giver.display)
            if not giving <= taking:
                taking |= giving
                again.append(taker)
        return again


def _shared_note(reads: TreeReads, job: Job, codes: dict[str, tuple]) -> Finding:
    """The note on a file that skips rules for a family's other file: the first class, each rule and why."""
    member, other, where = next(iter(codes.values()))
    rules = ", ".join(codes)
    return Finding(
        job.display,
        _class_line(reads, job.path, member),
        f"{member}: {rules} not run in this file: `{other}`, of its family, is in {where}, which runs without "
        f"{'it' if len(codes) == 1 else 'them'} (per-file-ignores), and a family is migrated whole",
    )
