"""A run over files: discover, pre-filter, migrate (in parallel), write.

Data flows one way. Only candidate files (see ``files.CANDIDATE``) are
parsed with libcst; the project index summarises any other module lazily,
with ``ast``, when a subclass chain runs through it. Each worker returns a
small Outcome (a diff, not trees), so memory stays bounded on large trees.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .model import Options
from .files import CANDIDATE, FileError, SourceFile, encode, read_source, write_atomic
from .report import Outcome, unified_diff

_PARALLEL_FROM = 8  # fewer candidates than this: process start-up costs more than it saves


@dataclass(frozen=True)
class Job:
    path: Path
    display: str  # the name shown and used in diffs
    root: Path | None


_worker_state: dict = {}


def _init_worker(jobs: list[Job], options: Options) -> None:
    from .project import Project

    project = Project(options.extra_bases)
    for job in jobs:
        project.add_file(job.path, job.root)
    _worker_state.update(project=project, options=options)


def _module_name(job: Job) -> str:
    from .project import module_names

    names = module_names(job.path, job.root)
    return names[0] if names else ""


def migrate_file(job: Job, in_place: bool) -> Outcome:
    from .engine import MigrationError, migrate_source

    outcome = Outcome(job.display)
    try:
        source = read_source(job.path)
        result = migrate_source(source.text, job.display, _worker_state["options"],
                                _worker_state["project"], _module_name(job))
    except (FileError, MigrationError) as error:
        outcome.error, outcome.error_line = str(error), error.line
        return outcome
    except RecursionError:
        outcome.error = "too deeply nested to handle"
        return outcome
    outcome.changes, outcome.findings = result.report.changes, result.report.findings
    outcome.primitives = result.report.primitives
    if result.code != source.text:
        outcome.diff = unified_diff(job.display, source.text, result.code)
        if in_place:
            _write(source, result.code, outcome)
    return outcome


def _write(source: SourceFile, code: str, outcome: Outcome) -> None:
    try:
        write_atomic(source, encode(source, code))
        outcome.written = True
    except (FileError, UnicodeEncodeError) as error:
        outcome.error = str(error)


def is_candidate(path: Path) -> bool:
    try:
        return CANDIDATE.search(path.read_bytes()) is not None
    except OSError:
        return True  # let the migration report why it cannot be read


def run(jobs: list[Job], options: Options, in_place: bool, workers: int | None = None,
        progress=None) -> list[Outcome]:
    """Migrate ``jobs``; outcomes come back in the order of ``jobs``."""
    candidates = [job for job in jobs if is_candidate(job.path)]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(candidates) < _PARALLEL_FROM:
        _init_worker(jobs, options)
        return _collect((migrate_file(job, in_place) for job in candidates), progress)
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(jobs, options)) as pool:
        results = pool.map(migrate_file, candidates, [in_place] * len(candidates), chunksize=4)
        return _collect(results, progress)


def _collect(results, progress) -> list[Outcome]:
    outcomes = []
    for outcome in results:
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes
