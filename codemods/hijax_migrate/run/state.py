"""One run's state, in one object: made at the run's start, handed down to
the runner, the index and the tree's searches, and to the workers; gone
with the run. Nothing of one run is visible to the next in the same process
(a later run sees the tree as it is then), and nothing needs resetting.

A pool's workers get it as libcst's codemod command hands its workers an
execution config: where they are forked, the run itself (inherited, never
pickled: the index the parent built so far serves on); where they are not,
its picklable part (``for_workers``), from which each makes an index of
its own. The run's index of the tree (``analysis/index.py``) is made once
the pre-filter has counted the candidates (``open_index``), given all it
holds then (the stat record, the decider of cross-file questions, how its
searches go); each file sees it through a view of its own (``Index.file``),
whose ``Answers`` go with the file's result to the cache. The state of each
file migrated stays in its view and its ``FileContext``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.model import Options
from ..rules.decisions import Decider
from ..sources.files import Listings
from ..sources.originals import Originals
from ..tree.cache import Cache, tool_key
from ..tree.modules import Packages
from ..tree.reads import TreeReads
from ..tree.scans import Scans

if TYPE_CHECKING:
    from ..analysis.index import Index
    from ..analysis.project import FileProject


@dataclass(frozen=True)
class Job:
    """A file the run takes."""

    path: Path
    display: str  # the name shown and used in diffs
    root: Path | None


@dataclass
class Run:
    jobs: list[Job]
    options: Options
    in_place: bool  # files are written (the originals are kept meanwhile)
    workers: int  # processes the run may use
    roots: tuple[Path, ...]  # the folders imports start from
    reads: TreeReads  # its reads of the tree: listings, bytes, originals, searches for uses
    cache: Cache  # results across runs (a Cache with no folder where off)
    scans: Scans | None  # the stat record (None in a worker not forked: its parent keeps it)
    index: Index | None = None  # the tree as the run finds it: made by ``open_index``, or a worker's own
    # (file shown, hash of its text) of each candidate triage sent to libcst -> its answer, the rules
    # that may act (None: any): not asked again
    to_migrate: dict[tuple[str, int], set[str] | None] = field(default_factory=dict)
    searched: tuple[Path, ...] = ()  # the folders the tree is searched under (``searched_roots``)
    journal_root: Path | None = None  # where an in-place run keeps its journal (units.py): the project's root

    @classmethod
    def start(
        cls,
        jobs: list[Job],
        options: Options,
        in_place: bool,
        workers: int | None = None,
        cache_dir: Path | None = None,
        listings: Listings | None = None,
        here: Path | None = None,
    ) -> Run:
        """``cache_dir``: where results and the stat record are kept across
        runs (None: not kept); ``listings``: the tree's walks made to find
        the jobs (``selection.jobs_for``), which serve the run on; ``here``:
        where files named alone import from (None: the working folder)."""
        reads = TreeReads(Originals.start() if in_place else None, listings)
        roots = roots_of(jobs, reads.packages, here)
        searched = searched_roots(roots, jobs, reads.packages)
        tool = tool_key()  # the tool's own sources, as this run finds them
        return cls(
            jobs,
            options,
            in_place,
            workers or os.cpu_count() or 1,
            roots,
            reads,
            Cache(cache_dir, options, roots + ("searched:",) + searched, tool),
            Scans(cache_dir, roots, reads.originals, tool),
            searched=searched,
        )

    @property
    def originals(self) -> Originals:
        return self.reads.originals

    def open_index(self, by_names: bool) -> Index:
        """The run's index of the tree, made once (the pre-filter has counted the
        candidates). ``by_names``: a run over many candidates (a whole tree, not a
        change) asks for the subclasses of many classes, and one index of every
        file's names answers them all, where a pass of the tree a name would read
        each file again and again."""
        from ..analysis.index import SEARCH_PASSES, Index

        if self.index is None:
            self.index = Index(
                self.options.extra_bases,
                self.roots,
                self.reads,
                self.searched,
                decider=new_decider(),
                scans=self.scans,
                search_passes=0 if by_names else SEARCH_PASSES,
            )
        return self.index

    def for_workers(self, forked: bool) -> Run:
        """What a pool's workers start from: forked, this run (they inherit
        its index as it stands); else its picklable part."""
        if forked:
            return self
        return Run(
            [],
            self.options,
            self.in_place,
            self.workers,
            self.roots,
            TreeReads(self.originals, shared=self.reads.shared),
            self.cache,
            None,
            searched=self.searched,
        )

    def in_worker(self) -> Run:
        """In a worker, at its start: the run it works for."""
        if self.scans is None:  # not forked: an index of its own (libcst comes with the first file needing it)
            from ..analysis.index import Index

            self.index = Index(self.options.extra_bases, self.roots, self.reads, self.searched, decider=new_decider())
        else:
            self.scans.taken()  # what the parent learnt before the fork, it knows
        return self

    def after(self) -> FileProject:
        """The view of the tree what comes after the run (a review) decides in,
        over an index of its own: the files are read anew (a review writes them
        as it goes)."""
        from ..analysis.index import Index
        from ..analysis.project import view_of

        return view_of(
            Index(self.options.extra_bases, self.roots, self.reads.anew(), self.searched, decider=new_decider())
        )

    def finish(self) -> None:
        """The run's end: the originals go, a search no one asked for is
        stopped, the stat record is saved, the facts its workers shared go."""
        self.originals.finish()
        self.reads.shared.close()
        if self.index is not None:
            self.index.close()
        self.scans.save()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc) -> None:
        self.finish()


def new_decider() -> Decider:
    """What answers a run's questions on other files' migrations, once each (the
    index's, for as long as it serves: a run, or the review after it)."""
    return Decider(_migrate_another)


def _migrate_another(code: str, path: str, options: Options, project: FileProject, module: str):
    from ..engine.engine import migrate_source  # libcst: imported once a decision is asked

    return migrate_source(code, path, options, project, module)


def roots_of(jobs: list[Job], packages: Packages | None = None, here: Path | None = None) -> tuple[Path, ...]:
    """The folders imports start from in a run over ``jobs`` (``packages``:
    the run's). Files named one by one import from where the tool runs
    (``here``, else the working folder), as under ``python -m``."""
    named = [here or Path.cwd()] if any(job.root is None for job in jobs) else []
    packages = packages if packages is not None else Packages()
    return packages.search_roots([job.path for job in jobs], list({job.root for job in jobs if job.root}) + named)


_PROJECT_MARKS = (".git", ".hg", "pyproject.toml", "setup.py", "setup.cfg")


def searched_roots(roots: tuple[Path, ...], jobs: list[Job], packages: Packages) -> tuple[Path, ...]:
    """The folders the tree is searched under for subclasses and uses: the import
    roots, each kept inside the projects of the run's files (the nearest folder
    above a file marked as a repository or a Python project, else its package
    root). Imports still resolve from every root; a search never walks the
    folders beside a project (all of ``/tmp`` for a project in it), nor a
    working directory outside it."""
    projects, found, marked = {}, set(), {}
    for name in {os.path.dirname(os.fspath(job.path)) for job in jobs}:  # a tree's files share few folders
        folder = packages.real(Path(name or "."))
        if folder not in projects:
            projects[folder] = _project_of(folder, packages, marked)
    for root in roots:
        for project in set(projects.values()):
            if root == project or project in root.parents:
                found.add(root)
            elif root in project.parents:
                found.add(project)
    return tuple(sorted(found))


def _project_of(folder: Path, packages: Packages, marked: dict[Path, Path | None]) -> Path:
    return _marked(folder, marked) or packages.package_root(folder / "_")


def _marked(folder: Path, known: dict[Path, Path | None]) -> Path | None:
    """The nearest folder from ``folder`` up that bears a project's mark; ``known``:
    the answers for folders asked before (sibling folders share their parents')."""
    chain = []
    while folder not in known:
        if any(os.path.exists(folder / mark) for mark in _PROJECT_MARKS):
            known[folder] = folder
            break
        chain.append(folder)
        if folder.parent == folder:
            known[folder] = None
            break
        folder = folder.parent
    for below in chain:
        known[below] = known[folder]
    return known[chain[0]] if chain else known[folder]
