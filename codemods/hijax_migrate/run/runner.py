"""A run over files: discover, pre-filter, migrate (in parallel), write.

Data flows one way. Only candidate files (see ``triage.candidate_words``) are
parsed with libcst; the run's index finds any other module on disk, and
summarises it, only when a subclass chain runs through it; each file sees it
through a view of its own, whose answers go with its result to the cache. Each worker
returns a small Outcome (a diff, not trees), so memory stays bounded on
large trees. The run's state (``state.Run``) is handed to every step, and to
the workers as they start: nothing of a run outlives it.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import stat
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.model import Options, Outcome
from ..sources.files import (
    DOCUMENTS,
    FileError,
    Listings,
    SourceFile,
    check_round_trip,
    encode,
    named_words,
    read_source,
    signals_deferred,
)
from ..sources.parse import trees_kept
from .state import Job, Run, new_decider, roots_of, searched_roots

if TYPE_CHECKING:
    from .pool import ForkedPool
    from .spawned import SpawnedPool

    WorkerPool = ForkedPool | SpawnedPool

_PARALLEL_FROM = 8  # fewer candidates than this: process start-up costs more than it saves
# Candidates triaged on every core from this many, or this many bytes (a fork
# costs a few milliseconds; ast parses about 4 MB a second).
_PARALLEL_TRIAGE, _PARALLEL_TRIAGE_BYTES = 24, 256 << 10
# From this many files to read, the pre-filter reads them on every core, in the
# pool that goes on to triage the candidates where they are few (one fork, not
# two: the workers need no index of the tree's names). Below, a pool costs more
# than it saves. From _LEARNING, the run is likely over a whole tree, whose
# searches (see _FEW_CANDIDATES) read every file: the workers learn what those
# ask too (below, it costs jax's 620 files 0.05 s more CPU than it saves).
_PARALLEL_PREFILTER, _LEARNING = 256, 1024
# A run over more candidates than this (a whole tree, not a change) asks for
# the subclasses of many classes: an index of every file's names answers them
# all, where a pass of the tree a name would read each file again and again.
_FEW_CANDIDATES = 32


# In a pool's worker process only: the run it works for (set as the worker
# starts, by ``_start_worker``; the parent never sets it).
_worker: Run | None = None


def _start_worker(parent: int, run: Run, libcst_now: bool = True) -> None:
    """A pool's initializer: ``run`` is the parent's run, forked, or its
    picklable part (``Run.for_workers``)."""
    global _worker
    # Ctrl-C reaches the whole process group: the parent alone handles it,
    # letting each worker finish the file it is on, so no write is cut off.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM ends a worker outright (forked, it would inherit the parent's
    # handler): the parent's second Ctrl-C and its death both rely on that.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from .pool import end_with_parent

    end_with_parent(parent)
    gc.set_threshold(_YOUNG, *gc.get_threshold()[1:])  # as the parent's run, where spawned
    if libcst_now:  # a pool started for files that need libcst: imported up front
        from ..engine import engine  # noqa: F401

    _worker = run.in_worker()


def _module_name(job: Job, index) -> str:
    return index.module_name(job.path, job.root)


def migrate_file(run: Run, job: Job) -> Outcome:
    """One file's outcome: whatever goes wrong is this file's failure, never the run's."""
    outcome = Outcome(job.display)
    with failures_of(outcome), trees_kept():  # triage's parse by ast serves the migration
        source = read_source(job.path)
        data = new_bytes(source, job, outcome, partial(_migrate_and_keep, run))
        if data is not None and run.in_place:
            run.originals.keep(source.path, source.raw)  # other files' decisions rest on the text as found
            run.originals.stage(source.path, data)  # written with its family, once all are migrated (units)
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
    outcome.diff = _diff(job.display, source.text, result.code)
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


# Young objects allocated between two collections of the youngest generation
# (CPython's default: 700). A run allocates millions (every tree triage parses)
# and makes few cycles: collected at the default pace, they cost a tenth of a
# cold run over jax's own sources. mypy collects as rarely, for the same reason.
_YOUNG = 200_000


@contextlib.contextmanager
def collecting_rarely():
    """The run's pace of cyclic collection (``_YOUNG``), the caller's restored
    after it; workers start with it (forked or told, ``_start_worker``)."""
    pace = gc.get_threshold()
    gc.set_threshold(_YOUNG, *pace[1:])
    try:
        yield
    finally:
        gc.set_threshold(*pace)


def bug_report(error: BaseException) -> str:
    """The message for an exception the tool did not expect, naming where it was raised."""
    import traceback  # a bug's path alone

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "hijax_migrate" in f.filename]
    at = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return (
        f"internal error ({type(error).__name__}: {error}{at}); file left unchanged, "
        "please report this bug in hijax-migrate"
    )


def _migrate_and_keep(run: Run, text: str, job: Job):
    """``migrate_document`` in a run, in a view of the tree of the file's own:
    the result is kept in the cache, with what its answers rest on."""
    from ..analysis.project import view_of

    project, options = view_of(run.index), run.options.for_file(job.path)
    key = (job.display, hash(text))
    result = migrate_document(text, job, options, project, key in run.to_migrate, run.to_migrate.get(key))
    result.answers = project.answers
    run.cache.store(job.display, _module_name(job, run.index), text, result, run.index, options.file_skip)
    return result


def migrate_document(
    text: str, job: Job, options: Options, project, triaged: bool = False, acting: set[str] | None = None
):
    """A Python module, or the Python inside a notebook or Markdown document.
    ``triaged``: triage found this text needs libcst (it is not asked again),
    and that ``acting`` may act on it (None: any). ``options``: the run's, or
    any file's: the file's own are taken (``Options.for_file``)."""
    from ..core.model import Result

    options, suffix = options.for_file(job.path), job.path.suffix
    if suffix not in DOCUMENTS:
        return _triaged_source(text, job.display, options, project, _module_name(job, project), triaged, acting)
    from ..engine.suppress import DOCUMENT_MARK

    if suffix != ".ipynb" and DOCUMENT_MARK.search(text):  # <!-- hijax-migrate: skip-file -->
        from ..core.model import FileReport

        return Result(text, FileReport(job.display))
    # --black is for Python files: a cell's layout is the document's business
    migrate = partial(_triaged_source, path=job.display, options=replace(options, black=False), project=project)
    if suffix == ".ipynb":
        from ..sources.notebooks import migrate_notebook as migrate_cells_of
    else:
        from ..sources.markdown import migrate_markdown as migrate_cells_of
    from ..engine.triage import every_word

    return Result(*migrate_cells_of(text, job.display, migrate, every_word()))


def _triaged_source(
    code: str,
    path: str,
    options: Options,
    project,
    module: str = "",
    triaged: bool = False,
    acting: set[str] | None = None,
):
    """A module, or a document's joined cells: parsed with libcst only where
    triage finds a rule may act (``triaged``: found already, ``acting`` its
    answer). Most files, and most documents, merely mention a word."""
    from ..core.model import Result
    from ..engine.triage import triage_of

    if not triaged:
        report, acting = triage_of(code, path, options, project, module)
        if report is not None:  # nothing to rewrite or report: never parsed with libcst
            return Result(code, report)
    from ..engine.engine import migrate_source

    return migrate_source(code, path, options, project, module, triaged=True, acting=acting)


def _diff(name: str, old: str, new: str) -> str:
    """``notebooks.cell_diff``, imported where a diff is made (a check of an unchanged tree makes none)."""
    from ..sources.notebooks import cell_diff

    return cell_diff(name, old, new)


def _settle(run: Run, job: Job, triage: bool, lookup: bool = True) -> Outcome | None:
    """A candidate's outcome known without libcst: from the cache (``lookup``),
    or (``triage``) because triage finds nothing to do. None: the file needs a
    migration."""
    try:
        text = read_source(job.path).text
    except FileError:
        return None  # the migration reports why
    module, skipped = _module_name(job, run.index), run.options.for_file(job.path).file_skip
    stored = run.cache.lookup(job.display, module, text, run.index, skipped) if lookup else None
    if stored is not None and not (run.in_place and stored["code"] is not None):  # a change to write is redone
        diff = _diff(job.display, text, stored["code"]) if stored["code"] is not None else ""
        return Outcome(job.display, stored["changes"], stored["findings"], diff, primitives=stored["primitives"])
    if not triage or job.path.suffix in DOCUMENTS:
        return None
    return _triage(run, job, text, module)


def _triage(run: Run, job: Job, text: str, module: str) -> Outcome | None:
    """The outcome of a file triage finds nothing to do in (kept in the
    cache); None: it needs libcst."""
    from ..analysis.project import view_of
    from ..core.model import Result
    from ..engine.triage import triage_of

    project, options = view_of(run.index), run.options.for_file(job.path)
    try:
        with trees_kept():
            report, acting = triage_of(text, job.display, options, project, module)
    except Exception:  # never the run's failure: the migration reports what is wrong
        return None
    if report is None:  # the migration of this text, in this process, takes triage's answer
        run.to_migrate[job.display, hash(text)] = acting
        return None
    run.cache.store(job.display, module, text, Result(text, report, project.answers), run.index, options.file_skip)
    return Outcome(job.display, findings=report.findings, primitives=report.primitives)


def settle_or_migrate(run: Run, job: Job) -> Outcome:
    """In a worker: the file triaged, and migrated at once if it needs libcst
    (the worker imports it then), while the other workers triage on."""
    with trees_kept():  # one parse by ast for triage and the migration
        outcome = _settle(run, job, triage=True, lookup=False)
        return outcome if outcome is not None else migrate_file(run, job)


def _in_worker(work, job: Job) -> tuple[Outcome | None, dict]:
    """In a worker: ``work(its run, job)``, and what it learnt of the tree's
    files (for the parent's record of them, which it saves)."""
    if _worker.index is None:  # forked before the parent made it: the pre-filter's pool
        _worker.open_index(by_names=False)  # kept only where the parent's is not by names (_prefiltered)
    outcome = work(_worker, job)
    scans = _worker.scans
    return outcome, scans.taken() if scans is not None else {}


def migrate(run: Run, progress=None) -> list[Outcome]:
    """Migrate the run's jobs; outcomes come back in the order of its jobs.
    A file travels: pre-filter, cache, triage, libcst (on every core, or in
    this process); in place, the files are then written family by family."""
    heard: list[Outcome] = []
    try:
        return _outcomes(run, progress, heard)
    except KeyboardInterrupt:
        if run.in_place:
            from .units import tell_written

            tell_written(heard)
        raise


def _outcomes(run: Run, progress, heard: list[Outcome]) -> list[Outcome]:
    """``heard``: the outcomes of the files migrated, as they come in. The
    last text triage parsed is kept: where it is the first migrated (one
    file), its migration parses it no more."""
    with _running(run, progress) as workers, trees_kept(), collecting_rarely():
        wanted = _prefiltered(run, workers)
        order = _cached(run, wanted)
        misses = [job for job, outcome in zip(wanted, order) if outcome is None]
        if run.workers > 1 and _worth_forking(misses) and _forks():
            return _merge(order, _on_every_core(run, workers, misses, progress, heard))
        order = _merge(order, _triaged(run, misses, workers))
        candidates = [job for job, outcome in zip(wanted, order) if outcome is None]
        return _merge(order, _migrated(run, candidates, workers, progress, heard))


def _cached(run: Run, jobs: list[Job]) -> list[Outcome | None]:
    """The cache's outcome of each job (None: a miss); no file is read where it holds
    nothing (off, or a first run: a cold check of a tree read each candidate for none)."""
    if run.cache.holds_nothing():
        return [None] * len(jobs)
    return [_settle(run, job, triage=False) for job in jobs]


def run(
    jobs: list[Job],
    options: Options,
    in_place: bool,
    workers: int | None = None,
    progress=None,
    cache_dir: Path | None = None,
    listings: Listings | None = None,
) -> list[Outcome]:
    """``migrate`` in a run of its own over ``jobs`` (see ``Run.start``)."""
    with Run.start(jobs, options, in_place, workers, cache_dir, listings) as state:
        return migrate(state, progress)


class _Workers:
    """The run's pool of workers for triage and libcst, once started."""

    def __init__(self, run: Run):
        self.run, self.pool = run, None

    def start(self, libcst_now: bool = True) -> WorkerPool:
        """The pool, started now if it was not (by the pre-filter: its workers forked
        before the run's index was made, which each then makes for itself)."""
        if self.pool is None:
            self.pool = _pool(self.run, libcst_now)
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None


@contextlib.contextmanager
def _running(run: Run, progress):
    """The run's pool, closed at its end; after Ctrl-C, the files in progress are finished first."""
    workers = _Workers(run)
    try:
        yield workers
    except KeyboardInterrupt:
        if workers.pool is not None:
            _stop(workers.pool)
            workers.pool = None
        raise
    finally:
        if progress is not None:
            progress.stop()
        if workers.pool is not None:
            workers.pool.close()


def _prefiltered(run: Run, workers: _Workers) -> list[Job]:
    """The jobs whose files name a word of the rules that run for them; the
    run's index is made once they are counted (many: searches for subclasses
    by one index, made here before workers fork: a pool that read the files
    is closed). The run's words are looked for in every file; a file with
    per-file-ignores is then asked its own, fewer (no second read)."""
    from ..engine.triage import candidate_words

    wanted = _candidates(run, candidate_words(run.options), workers)
    if run.options.per_file:
        own = (run.options.for_file(job.path) for job in wanted)
        wanted = [
            job for job, options in zip(wanted, own) if run.scans.is_candidate(job.path, candidate_words(options))
        ]
    by_names = len(wanted) > _FEW_CANDIDATES
    run.open_index(by_names)
    if by_names:
        workers.close()
    return wanted


def _candidates(run: Run, words: frozenset[bytes], workers: _Workers) -> list[Job]:
    """The jobs that may need a migration. The stat record answers for files
    as they were; the others are read, on every core where there are many."""
    jobs, scans = run.jobs, run.scans
    known = [scans.answered(job.path, words) for job in jobs]
    unread = [job.path for job, answer in zip(jobs, known) if answer is None]
    if run.workers > 1 and len(unread) >= _PARALLEL_PREFILTER and _forks():
        pool = workers.start(libcst_now=False)
        read = iter(_read_on_every_core(unread, words, scans, pool, learning=len(unread) >= _LEARNING))
    else:
        read = (scans.is_candidate(path, words) for path in unread)
    return [job for job, answer in zip(jobs, known) if (answer if answer is not None else next(read))]


def _read_on_every_core(
    paths: list[Path], words: frozenset[bytes], scans, pool: WorkerPool, learning: bool
) -> list[bool]:
    """``scans.is_candidate`` of each path, in slices shared by the pool's
    workers; what they learnt reaches the parent's record."""
    size = -(-len(paths) // (8 * pool.workers))  # slices enough to keep every worker busy to the end
    answers = []
    for named, learnt in pool.map(
        partial(_candidates_in, words=words, learning=learning),
        [paths[i : i + size] for i in range(0, len(paths), size)],
        _all_named,
    ):
        scans.merge(learnt)
        answers += named
    return answers


def _candidates_in(paths: list[Path], words: frozenset[bytes], learning: bool) -> tuple[list[bool], dict]:
    """In a worker: ``scans.is_candidate`` of each path, and (``learning``) what
    the searches of a whole tree will ask of it (``index.learn``)."""
    scans = _worker.scans
    named = [scans.is_candidate(path, words) for path in paths]
    if learning:
        from ..analysis.index import learn

        for path in paths:
            learn(path, scans, _worker.reads)
    return named, scans.taken()


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


def _first(path: Path, scans=None) -> tuple[bool, int]:
    """Where a file goes in the workers' queue: one that names both of a primitive's
    rules (the likeliest to need libcst, which costs many times its triage) before
    any other, then the largest: a long one started last would leave the other workers idle.
    The stat record (``scans``) answers where the pre-filter asked it, else the file is read."""
    known = scans.named_and_size(path, _RULES) if scans is not None else None
    if known is not None:
        named, size = known
        return len(named) < len(_RULES), -size
    try:  # never blocking on a FIFO or a device (the migration reports them), nor waiting for one
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return True, 0
    try:
        info = os.fstat(handle)
        data = os.read(handle, _MAX_RANKED) if stat.S_ISREG(info.st_mode) else b""
    except OSError:
        data = b""
    finally:
        os.close(handle)
    return len(named_words(data, _RULES)) < len(_RULES), -info.st_size if data else 0


_MAX_RANKED = 1 << 22  # bytes of a file read to rank it: more are no likelier to need libcst
_RULES = frozenset({b"vjp_fwd", b"vjp_bwd"})  # whole names, as the pre-filter reads them


def _on_every_core(run: Run, workers: _Workers, misses: list[Job], progress, heard: list) -> list[Outcome]:
    """Each miss's outcome, from the pool's workers, in the order of ``misses``,
    those likeliest to take longest first (``_first``). A worker that dies on
    a file, triage or libcst, reports it as the parser's crash."""
    if run.index.search_passes == 0:
        run.index.name_index()  # built once, here, not once a worker
    # Workers forked now start from the parent's index (summaries, the tree's names);
    # the pre-filter's, from none (it had few candidates: no index of names to share).
    pool = workers.start(libcst_now=False)
    pool.warm_up()  # forked now, before the progress bar's thread runs (a fork copies no thread but its own)
    if progress is not None:
        progress.start(len(misses))
    ranked = sorted(range(len(misses)), key=lambda index: _first(misses[index].path, run.scans))
    told = pool.map(partial(_in_worker, settle_or_migrate), [misses[i] for i in ranked], _crashed)
    done = _collect(_heard(run, told), progress, _writer(run, misses), heard)
    return [outcome for _, outcome in sorted(zip(ranked, done), key=lambda pair: pair[0])]


def _triaged(run: Run, misses: list[Job], workers: _Workers) -> list[Outcome | None]:
    """Each miss's outcome, or None: it needs libcst. Started once a few
    need it, the workers import libcst while the rest is triaged, from the
    parent's index where forked (summaries, the tree's names)."""
    triaged, waiting = [], 0
    for job in misses:
        triaged.append(_settle(run, job, triage=True, lookup=False))
        waiting += triaged[-1] is None
        if workers.pool is None and run.workers > 1 and waiting == _PARALLEL_FROM:
            workers.start().warm_up()
    return triaged


def _migrated(run: Run, candidates: list[Job], workers: _Workers, progress, heard: list) -> list[Outcome]:
    """The outcomes of the files that need libcst: by the pool where it was
    started, else in this process (its index serves on)."""
    if progress is not None:
        progress.start(len(candidates))
    if workers.pool is not None:
        told = workers.pool.map(partial(_in_worker, migrate_file), candidates, _crashed)
        return _collect(_heard(run, told), progress, _writer(run, candidates), heard)
    if candidates and run.workers > 1 and not run.in_place:  # written files: the child would read them changed
        run.index.prefetch_searches()
    return _collect((migrate_file(run, job) for job in candidates), progress, _writer(run, candidates), heard)


def _heard(run: Run, told):
    """The workers' outcomes, what they learnt of the tree's files merged into the parent's record."""
    return (run.scans.merge(learnt) or outcome for outcome, learnt in told)


def _forks() -> bool:
    from .pool import FORKS

    return FORKS


def _pool(run: Run, libcst_now: bool = True) -> WorkerPool:
    """A pool for the run: forked, its workers inherit the run as it stands.
    Imported here: a run that never forks (a warm one, a hook's) skips its pipes
    and pickle."""
    run.reads.shared.open()  # before the fork: every worker knows where the others leave their facts
    return pool_kind()(run.workers, _start_worker, (run.for_workers(_forks()), libcst_now))


def pool_kind():
    """Workers forked where the platform forks safely (``pool.FORKS``), else spawned;
    either takes ``(workers, initializer, initargs)`` and survives a worker's death."""
    if _forks():
        from .pool import ForkedPool

        return ForkedPool
    from .spawned import SpawnedPool

    return SpawnedPool


def project_for(jobs: list[Job], options: Options, reads=None):
    """The view of the tree work on ``jobs`` outside a run resolves bases in
    (stdin's, the codemod's), over an index of its own; ``reads``: the tree's
    reads it shares (none: its own)."""
    from ..analysis.index import Index
    from ..analysis.project import view_of
    from ..tree.reads import TreeReads

    reads = reads if reads is not None else TreeReads()
    roots = roots_of(jobs, reads.packages)
    return view_of(
        Index(options.extra_bases, roots, reads, searched_roots(roots, jobs, reads.packages), decider=new_decider())
    )


def _stop(pool: WorkerPool) -> None:
    """After Ctrl-C the files in progress are finished; a second Ctrl-C ends
    them at once (a write under way still completes: it defers SIGTERM)."""
    try:
        print(
            "hijax-migrate: stopping after the files in progress (Ctrl-C again to stop now)",
            file=sys.stderr,
            flush=True,
        )
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


def _writer(run: Run, jobs: list[Job]):
    """In place: what writes the files, family by family, as they come in."""
    if not run.in_place or not jobs:
        return None
    from .units import Units

    return Units(run, jobs)


def _collect(results, progress, writer=None, heard: list | None = None) -> list[Outcome]:
    outcomes = heard if heard is not None else []
    for outcome in results:
        outcomes.append(outcome)
        if writer is not None:
            writer.heard(outcome)
        if progress is not None:
            progress.advance(outcome.file)
    return list(outcomes)
