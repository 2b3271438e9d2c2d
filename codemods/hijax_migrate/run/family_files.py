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
from pathlib import Path

from ..analysis.families import Classes, ancestors, descendants
from ..analysis.scopes import defines_rules
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
    found = re.search(rf"^[ \t\f]*(class\s*\\?\s*{name}\b|{name}\s*=\s*type\b)".encode(), reads.read(path) or b"", re.M)
    return (reads.read(path).count(b"\n", 0, found.start()) + 1) if found else 1


def _shown(path: Path, relative: bool) -> str:
    """``relative``: as a file named from where the tool runs, if under it; else whole."""
    rel = os.path.relpath(path) if relative else ".."
    return Path(rel).as_posix() if not rel.startswith("..") else Path(os.path.abspath(path)).as_posix()


def _members(project, job: Job):
    """The classes of other modules in the families of ``job``'s hijax classes, and how each is tied."""
    summary = project.summary(project.module_name(job.path))
    if summary is None:
        return
    here = Classes(summary.every_class)
    for info in summary.every_class:
        if not (project.class_kind(info).is_primitive or defines_rules(info)):
            continue
        for above in ancestors(project, info):
            if above.module != info.module and defines_rules(above):
                yield above, f"a base of {info.qualname}"
        for below in descendants(project, info, here):
            if below.module != info.module:
                yield below, f"a subclass of {info.qualname}"
