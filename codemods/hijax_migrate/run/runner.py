"""A run over files: discover, pre-filter, migrate (in parallel), write.

Data flows one way. Only candidate files (see ``files.CANDIDATE_WORDS``) are
parsed with libcst; the project finds any other module on disk, and
summarises it, only when a subclass chain runs through it. Each worker
returns a small Outcome (a diff, not trees), so memory stays bounded on
large trees.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import traceback
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.linediff import file_diff
from ..core.model import Options, Outcome
from ..sources import originals
from ..sources.files import (
    DOCUMENTS,
    FileError,
    SourceFile,
    check_round_trip,
    encode,
    forget_trees,
    read_source,
    signals_deferred,
    write_atomic,
)
from ..tree import calls, holders
from ..tree.cache import Cache
from ..tree.modules import module_names, search_roots
from ..tree.scans import Scans

if TYPE_CHECKING:
    from .pool import WorkerPool

_PARALLEL_FROM = 8  # fewer candidates than this: process start-up costs more than it saves
# Candidates triaged on every core from this many, or this many bytes (a fork
# costs a few milliseconds; ast parses about 4 MB a second).
_PARALLEL_TRIAGE, _PARALLEL_TRIAGE_BYTES = 24, 256 << 10
# From this many files to read, the run is likely over a whole tree, whose
# searches (see _FEW_CANDIDATES) read every file: the pre-filter reads them on
# every core, learning what the searches ask too. Below, a pool costs more
# CPU than it saves time (jax's 620 files: no faster, 0.05 s more CPU).
_PARALLEL_PREFILTER = 1024
# A run over more candidates than this (a whole tree, not a change) asks for
# the subclasses of many classes: an index of every file's names answers them
# all, where a pass of the tree a name would read each file again and again.
_FEW_CANDIDATES = 32


@dataclass(frozen=True)
class Job:
    path: Path
    display: str  # the name shown and used in diffs
    root: Path | None


_worker_state: dict = {}


def _init_pool_worker(parent: int, roots: tuple[Path, ...], options: Options,
                      cache: Cache | None = None, found: Path | None = None, project=None,
                      libcst_now: bool = True) -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it,
    # letting each worker finish the file it is on, so no write is cut off.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM ends a worker outright (forked, it would inherit the parent's
    # handler): the parent's second Ctrl-C and its death both rely on that.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from .pool import end_with_parent

    end_with_parent(parent)
    if libcst_now:  # a pool started for files that need libcst: imported up front
        from ..engine import engine  # noqa: F401

    _init_worker(roots, options, cache)
    originals.use(found)
    if project is not None:  # the parent's index, as it stood when the pool started
        _worker_state["project"] = project
        if project.scans is not None:
            project.scans.taken()  # what the parent learnt before the fork, it knows


def _init_worker(roots: tuple[Path, ...], options: Options, cache: Cache | None = None) -> None:
    # libcst is imported by the first file that needs it, if one does.
    from ..analysis.project import Project

    _worker_state.update(project=Project(options.extra_bases, roots), options=options, cache=cache)


def _module_name(job: Job) -> str:
    names = module_names(job.path, job.root)
    return names[0] if names else ""


def migrate_file(job: Job, in_place: bool) -> Outcome:
    """One file's outcome: whatever goes wrong is this file's failure, never the run's."""
    outcome = Outcome(job.display)
    with failures_of(outcome):
        source = read_source(job.path)
        data = new_bytes(source, job, outcome, _migrate_and_keep)
        if data is not None and in_place:
            originals.keep(source.path, source.raw)  # other files' decisions rest on the text as found
            write_atomic(source, data)
            outcome.written = True
    return outcome


@contextlib.contextmanager
def failures_of(outcome: Outcome):
    """Whatever the block raises becomes ``outcome``'s error, with its line."""
    from ..core.errors import SourceError

    try:
        yield
    except SourceError as error:  # files' and migrations' own errors
        outcome.error, outcome.error_line = str(error), error.line
    except RecursionError:
        outcome.error = "too deeply nested to handle"
    except MemoryError:
        outcome.error = "ran out of memory on this file; left unchanged"
    except Exception as error:  # a bug in the tool: reported as one, and the run goes on
        outcome.error = bug_report(error)


def new_bytes(source: SourceFile, job: Job, outcome: Outcome, migrate) -> bytes | None:
    """What the file becomes (None: it stays as it is), with what was done
    recorded in ``outcome``. FileError where the bytes the tool did not mean
    to change would not survive: files on disk and stdin pass the same checks."""
    with gc_paused():
        result = migrate(source.text, job)
    if result.code != source.text:
        check_round_trip(source)
    outcome.changes, outcome.findings = result.report.changes, result.report.findings
    outcome.primitives = result.report.primitives
    if result.code == source.text:
        return None
    outcome.diff = file_diff(job.display, source.text, result.code)
    return encode(source, result.code)


@contextlib.contextmanager
def gc_paused():
    """No cyclic garbage collection while a file is migrated. Each full
    collection walks every live object, and a big module's trees are millions
    of them: collections that come with every few thousand allocations made
    the time grow faster than the size. What cycles a run makes (scopes)
    are collected once the file is done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def bug_report(error: BaseException) -> str:
    """The message for an exception the tool did not expect, naming where it was raised."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "hijax_migrate" in f.filename]
    at = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return (f"internal error ({type(error).__name__}: {error}{at}); file left unchanged, "
            "please report this bug in hijax-migrate")


def _migrate_and_keep(text: str, job: Job):
    """``migrate_document`` in a run: the result is kept in the cache, with
    the modules it rests on."""
    project, cache = _worker_state["project"], _worker_state.get("cache")
    project.start_file()
    triaged = (job.display, hash(text)) in _worker_state.get("to_migrate", ())
    result = migrate_document(text, job, _worker_state["options"], project, triaged)
    if cache is not None:
        module = _module_name(job)
        cache.store(job.display, module, text, result, project.dependencies(module))
    return result


def migrate_document(text: str, job: Job, options: Options, project, triaged: bool = False):
    """A Python module, or the Python inside a notebook or Markdown document.
    ``triaged``: triage found this text needs libcst (it is not asked again)."""
    from ..core.model import Result
    from ..engine.triage import untouched

    suffix = job.path.suffix
    if suffix not in DOCUMENTS:
        module = _module_name(job)
        report = None if triaged else untouched(text, job.display, options, project, module)
        if report is not None:  # nothing to rewrite or report: never parsed with libcst
            return Result(text, report)
        from ..engine.engine import migrate_source

        return migrate_source(text, job.display, options, project, module, triaged=True)
    # --black is for Python files: a cell's layout is the document's business
    from ..engine.engine import migrate_source

    migrate = partial(migrate_source, path=job.display, options=replace(options, black=False),
                      project=project)
    if suffix == ".ipynb":
        from ..sources.notebooks import migrate_notebook as migrate_cells_of
    else:
        from ..sources.markdown import migrate_markdown as migrate_cells_of
    return Result(*migrate_cells_of(text, job.display, migrate))


def _roots(jobs: list[Job]) -> tuple[Path, ...]:
    # Files named one by one import from where the tool runs, as under `python -m`.
    named = [Path.cwd()] if any(job.root is None for job in jobs) else []
    return search_roots([job.path for job in jobs], list({job.root for job in jobs if job.root}) + named)


def _settle(job: Job, cache: Cache, project, options: Options, in_place: bool, triage: bool,
            lookup: bool = True) -> Outcome | None:
    """A candidate's outcome known without libcst: from the cache (``lookup``),
    or (``triage``) because triage finds nothing to do. None: the file needs a
    migration."""
    from ..core.model import Result
    from ..engine.triage import untouched

    try:
        text = read_source(job.path).text
    except FileError:
        return None  # the migration reports why
    module = _module_name(job)
    stored = cache.lookup(job.display, module, text, project) if lookup else None
    if stored is not None and not (in_place and stored["code"] is not None):  # a change to write is redone
        diff = file_diff(job.display, text, stored["code"]) if stored["code"] is not None else ""
        return Outcome(job.display, stored["changes"], stored["findings"], diff, primitives=stored["primitives"])
    if not triage or job.path.suffix in DOCUMENTS:
        return None
    project.start_file()
    try:
        report = untouched(text, job.display, options, project, module)
    except Exception:  # never the run's failure: the migration reports what is wrong
        return None
    if report is None:  # the migration of this text, in this process, need not ask triage again
        _worker_state.setdefault("to_migrate", set()).add((job.display, hash(text)))
        return None
    cache.store(job.display, module, text, Result(text, report), project.dependencies(module))
    return Outcome(job.display, primitives=report.primitives)


def settle_file(job: Job, in_place: bool) -> Outcome | None:
    """In a worker: ``_settle`` with the worker's index."""
    state = _worker_state
    return _settle(job, state["cache"], state["project"], state["options"], in_place, triage=True, lookup=False)


def settle_or_migrate(job: Job, in_place: bool) -> Outcome:
    """In a worker: the file triaged, and migrated at once if it needs libcst
    (the worker imports it then), while the other workers triage on."""
    outcome = settle_file(job, in_place)
    return outcome if outcome is not None else migrate_file(job, in_place)


def _told(work, job: Job, in_place: bool) -> tuple[Outcome | None, dict]:
    """In a worker: ``work(job)``, and what it learnt of the tree's files (for
    the parent's record of them, which it saves)."""
    outcome = work(job, in_place)
    scans = _worker_state["project"].scans
    return outcome, scans.taken() if scans is not None else {}


def _on_every_core(pool: WorkerPool, misses: list[Job], scans: Scans, in_place: bool, progress) -> list[Outcome]:
    """Each miss's outcome, from the pool's workers, in the order of ``misses``.
    The largest files go first: a long one started last would leave the other
    workers idle (and the files that need libcst are mostly large). A worker
    that dies on a file, triage or libcst, reports it as the parser's crash."""
    ranked = sorted(range(len(misses)), key=lambda index: -_size(misses[index].path))
    told = pool.map(partial(_told, settle_or_migrate, in_place=in_place), [misses[i] for i in ranked], _crashed)
    done = _collect((scans.merge(learnt) or outcome for outcome, learnt in told), progress)
    return [outcome for _, outcome in sorted(zip(ranked, done), key=lambda pair: pair[0])]


def _candidates(jobs: list[Job], words: frozenset[bytes], scans: Scans, workers: int, init: tuple) -> list[Job]:
    """The jobs that may need a migration. The stat record answers for files
    as they were; the others are read, on every core where there are many
    (``init``: the pool's initializer's arguments)."""
    known = [scans.answered(job.path, words) for job in jobs]
    unread = [job.path for job, answer in zip(jobs, known) if answer is None]
    if workers > 1 and len(unread) >= _PARALLEL_PREFILTER and _forks():
        read = iter(_read_on_every_core(unread, words, scans, _pool(workers, init)))
    else:
        read = (scans.is_candidate(path, words) for path in unread)
    return [job for job, answer in zip(jobs, known) if (answer if answer is not None else next(read))]


def _read_on_every_core(paths: list[Path], words: frozenset[bytes], scans: Scans, pool: WorkerPool) -> list[bool]:
    """``scans.is_candidate`` of each path, in slices shared by the pool's
    workers; what they learnt reaches the parent's record."""
    size = -(-len(paths) // (8 * pool.workers))  # slices enough to keep every worker busy to the end
    answers = []
    try:
        for named, learnt in pool.map(partial(_candidates_in, words=words),
                                      [paths[i:i + size] for i in range(0, len(paths), size)], _all_named):
            scans.merge(learnt)
            answers += named
    finally:
        pool.close()
    return answers


def _candidates_in(paths: list[Path], words: frozenset[bytes]) -> tuple[list[bool], dict]:
    """In a worker: ``scans.is_candidate`` of each path, and what the searches
    of a whole tree will ask of it (``Project.learn``)."""
    project = _worker_state["project"]
    named = [project.scans.is_candidate(path, words) for path in paths]
    for path in paths:
        project.learn(path)
    return named, project.scans.taken()


def _all_named(paths: list[Path]) -> tuple[list[bool], dict]:
    return [True] * len(paths), {}  # a worker died on them: each is migrated, alone, and reports it


def _worth_forking(misses: list[Job]) -> bool:
    if len(misses) >= _PARALLEL_TRIAGE:
        return True
    return len(misses) > 1 and sum(_size(job.path) for job in misses) >= _PARALLEL_TRIAGE_BYTES


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _forks() -> bool:
    import multiprocessing

    return multiprocessing.get_start_method() == "fork"


def _pool(workers: int, init: tuple):
    # Imported here: a run that never forks (a warm one, a hook's) skips
    # multiprocessing and concurrent.futures, 15 ms.
    from .pool import WorkerPool

    return WorkerPool(workers, _init_pool_worker, init)


def project_for(jobs: list[Job], options: Options):
    """The project a run over ``jobs`` resolves bases in, for work done in this process."""
    from ..analysis.project import Project

    return Project(options.extra_bases, _roots(jobs))


def run(jobs: list[Job], options: Options, in_place: bool, workers: int | None = None,
        progress=None, cache_dir: Path | None = None, walked: bool = False) -> list[Outcome]:
    """Migrate ``jobs``; outcomes come back in the order of ``jobs``.
    ``cache_dir``: where results are kept across runs (None: not kept);
    ``walked``: the jobs were just found by walking the tree for this run
    (``selection.jobs_for``), and that walk serves on."""
    from ..analysis.project import Project

    workers = workers or os.cpu_count() or 1
    _worker_state.pop("to_migrate", None)
    if not walked:
        forget_trees()  # another run in this process may have seen the tree otherwise
    calls.forget()
    holders.forget()
    roots = _roots(jobs)
    cache, project = Cache(cache_dir, options, roots), Project(options.extra_bases, roots)
    found = originals.start() if in_place else None
    project.scans = scans = Scans(cache_dir, roots)
    pool = None
    try:
        from ..engine.triage import candidate_words

        words = candidate_words(options)  # those of the rules that run
        wanted = _candidates(jobs, words, scans, workers, (roots, options, cache, found, project, False))
        if len(wanted) > _FEW_CANDIDATES:  # many classes: their subclasses are searched for by one index
            project.search_passes = 0
        order = [_settle(job, cache, project, options, in_place, triage=False) for job in wanted]  # cached
        misses = [job for job, outcome in zip(wanted, order) if outcome is None]
        if workers > 1 and _worth_forking(misses) and _forks():
            if project.search_passes == 0:
                project.name_index()  # built once, here, not once a worker
            # Forked workers start from the parent's index (summaries, the tree's names).
            pool = _pool(workers, (roots, options, cache, found, project, False))
            if progress is not None:
                progress.start(len(misses))
            return _merge(order, _on_every_core(pool, misses, scans, in_place, progress))
        triaged, waiting = [], 0  # each miss's outcome, or None: it needs libcst
        for job in misses:
            triaged.append(_settle(job, cache, project, options, in_place, triage=True, lookup=False))
            waiting += triaged[-1] is None
            if pool is None and workers > 1 and waiting == _PARALLEL_FROM:
                # Started now, the workers import libcst while the rest is triaged,
                # from the parent's index where forked (summaries, the tree's names).
                shared = project if _forks() else None
                pool = _pool(workers, (roots, options, cache, found, shared))
                pool.warm_up()
        order = _merge(order, triaged)
        candidates = [job for job, outcome in zip(wanted, order) if outcome is None]
        if progress is not None:
            progress.start(len(candidates))
        if pool is not None:
            told = pool.map(partial(_told, migrate_file, in_place=in_place), candidates, _crashed)
            return _merge(order, _collect((scans.merge(learnt) or outcome for outcome, learnt in told), progress))
        if candidates:
            _init_worker(roots, options, cache)
            _worker_state["project"] = project  # the index built so far serves on
            if workers > 1 and not in_place:  # written files: the child would read them changed
                project.prefetch_searches()
        return _merge(order, _collect((migrate_file(job, in_place) for job in candidates), progress))
    except KeyboardInterrupt:
        if pool is not None:
            _stop(pool)
            pool = None
        raise
    finally:
        if progress is not None:
            progress.stop()
        if pool is not None:
            pool.close()
        originals.finish()
        project.close()
        holders.forget()  # what comes after the run (a review) reads the tree anew
        scans.save()


def _stop(pool: WorkerPool) -> None:
    """After Ctrl-C the files in progress are finished; a second Ctrl-C ends
    them at once (a write under way still completes: it defers SIGTERM)."""
    try:
        print("hijax-migrate: stopping after the files in progress (Ctrl-C again to stop now)",
              file=sys.stderr, flush=True)
        pool.close()
    except KeyboardInterrupt:
        with signals_deferred():
            pool.close(now=True)


def _crashed(job: Job) -> tuple[Outcome, dict]:
    from .pool import CRASHED

    return Outcome(job.display, error=CRASHED), {}


def _merge(order: list[Outcome | None], computed: list[Outcome]) -> list[Outcome]:
    """Cached and computed outcomes, in the order of the jobs."""
    fresh = iter(computed)
    return [outcome if outcome is not None else next(fresh) for outcome in order]


def _collect(results, progress) -> list[Outcome]:
    outcomes = []
    for outcome in results:
        outcomes.append(outcome)
        if progress is not None:
            progress.advance(outcome.file)
    return outcomes
