"""One invocation of the tool: its settings (the command line's, the
configuration applied) checked, files found, run, reported."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import UsageError
from ..core.model import Options, Outcome
from ..core.per_file import PerFileIgnores
from ..core.settings import Settings, codes
from ..core.versions import format_version
from ..output.report import (
    as_github,
    as_json,
    colorize,
    error_text,
    grouped_text,
    has_errors,
    reader_may_leave,
    shown,
    summary,
    wants_color,
)
from ..run.state import Job
from ..sources.files import Listings
from . import config
from .usage import EXIT_CLEAN, EXIT_FAILED, EXIT_PENDING, EXIT_USAGE


def _target(settings: Settings) -> tuple:
    """The jax release and where it came from; a bad one is a usage error
    naming the flag or the configuration file that gave it."""
    from ..releases import target

    where = config.describe(settings.config_file, "target-jax") if "target-jax" in settings.from_config else None
    try:
        version, source = target.choose(settings.target_jax, config.start(settings))
    except ValueError as error:
        raise UsageError(f"{where}: {error}" if where else str(error)) from error
    return version, where or source


@dataclass(frozen=True)
class Target:
    """The jax release a run migrates to, and where it came from."""

    version: tuple
    source: str

    def __str__(self) -> str:
        return f"jax {format_version(self.version)} ({self.source})"

    def as_dict(self) -> dict:
        from ..releases.target import unpinned

        warning = unpinned(*self.astuple())
        return {"jax": format_version(self.version), "source": self.source, "pinned": not warning} | (
            {"warning": warning} if warning else {}
        )

    def astuple(self) -> tuple:
        return self.version, self.source


def options_of(settings: Settings) -> tuple[Options, str]:
    """The migration's options and a description of the target, from the
    settings (the configuration applied, where one was read)."""
    options, target = resolved(settings)
    return options, str(target)


def resolved(settings: Settings) -> tuple[Options, Target]:
    """The migration's options and its target."""
    from ..rules import registry

    version, source = _target(settings)
    only, skip = _rule_codes(settings)
    try:
        if only or skip:  # loading the rules imports libcst: only when asked
            registry.lookup(list(only + skip))
    except ValueError as error:
        raise UsageError(str(error)) from error
    options = Options(
        version,
        settings.strategy,
        only,
        skip,
        settings.base,
        settings.black,
        per_file=_per_file(settings),
        unsafe_fixes=settings.unsafe_fixes,
    )
    return options, Target(version, source)


def per_file_ignores(settings: Settings) -> PerFileIgnores:
    """The configuration's per-file-ignores, its patterns relative to its folder."""
    return PerFileIgnores(str(settings.root or ""), settings.per_file_ignores)


def _per_file(settings: Settings) -> PerFileIgnores:
    """``per_file_ignores`` of the registry's rules (``HJX100``'s rows are the
    report's: ``unused_reported_in``), checked when the configuration was read."""
    table = per_file_ignores(settings)
    rows = ((pattern, tuple(c for c in listed if not config.is_unused_code(c))) for pattern, listed in table.table)
    return replace(table, table=tuple((pattern, listed) for pattern, listed in rows if listed))


def _rule_codes(settings: Settings) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rules to run and to skip: ``--extend-select`` adds to a ``select``
    (none: every rule already runs); ``HJX100`` is no rule of the registry
    (``reports_unused``), and a ``select`` of it alone runs every rule, which
    it needs to tell a used suppression."""
    only = tuple(c for c in codes(settings.select) if not config.is_unused_code(c))
    extra = tuple(c for c in codes(settings.extend_select) if not config.is_unused_code(c))
    skip = tuple(c for c in codes(settings.ignore) if not config.is_unused_code(c))
    return (only + extra if only else ()), skip


def reports_unused(settings: Settings) -> bool:
    """Are suppressions that suppress nothing reported (``HJX100`` selected, as ruff's RUF100)?
    In a file whose per-file-ignores name it, not (``unused_reported_in``)."""
    chosen = (*codes(settings.select), *codes(settings.extend_select))
    return any(config.is_unused_code(c) for c in chosen) and not any(
        config.is_unused_code(c) for c in codes(settings.ignore)
    )


def unused_reported_in(table: PerFileIgnores, path: Path) -> bool:
    """Are unused suppressions reported in ``path``: none of its per-file-ignores
    names ``HJX100`` (as ruff's per-file-ignores may name RUF100)?"""
    return not any(config.is_unused_code(code) for code in table.codes_for(path))


def _check_usage(settings: Settings) -> None:
    stdin = settings.paths == ("-",)
    if "-" in settings.paths and not stdin:
        raise UsageError("'-' (stdin) must be the only PATH")
    if settings.update_pin and not settings.writes:
        raise UsageError("--update-pin writes the pin: use it with --in-place or --interactive")
    if stdin and settings.in_place:
        raise UsageError("--in-place with '-': stdin cannot be written back; the result goes to stdout without it")
    if settings.stdin_filename and not stdin:
        raise UsageError("--stdin-filename names stdin: give '-' as the only PATH")
    if settings.interactive and (stdin or settings.output_format != "text"):
        raise UsageError("--interactive reads answers from the terminal: not with '-' or --output-format json/github")
    if settings.unsafe_fixes and settings.add_noqa:
        raise UsageError("--unsafe-fixes with --add-noqa is not built yet (issue 43)")
    if settings.add_noqa and stdin:
        raise UsageError("--add-noqa writes comments into files: not with '-'")
    if settings.black:
        import importlib.util

        if importlib.util.find_spec("black") is None:
            raise UsageError(
                "--black needs black, which is not installed here; install it with: "
                f"{sys.executable} -m pip install 'hijax-migrate[black]'"
            )


@dataclass
class Session:
    settings: Settings  # the configuration applied
    options: Options
    target: str
    jobs: list[Job]
    listings: Listings = field(default_factory=Listings)  # the tree's walks made for the jobs: they serve the run
    taken: list = field(default_factory=list)  # a note on each file a chosen file's family brought
    origin: Target | None = None  # the target and its source, as the run's start names them

    @classmethod
    def start(cls, flags: Settings) -> Session:
        """The session of the command line's settings (``usage.settings_from``):
        the configuration applied, the usage checked, the files found."""
        from ..run.selection import chosen_in_part, jobs_for, with_families

        settings = config.read(flags)
        _check_usage(settings)
        options, origin = resolved(settings)
        listings = Listings()
        jobs = [] if settings.paths == ("-",) else jobs_for(settings, listings)
        jobs, taken = with_families(jobs, settings, options, listings)
        if options.per_file:  # a rule a file's per-file-ignores skip is skipped in its families' files too
            from ..run.family_files import shared_ignores

            options, shared = shared_ignores(jobs, options, listings, chosen_in_part(settings))
            taken += shared
        return cls(settings, options, str(origin), jobs, listings, taken, origin)

    def run(self) -> int:
        from ..sources.journal import Journal

        journal = Journal.around(self._journal_root())
        if journal.pending():  # a unit of writes cut off: the tree is not to be read
            print(cut_off(journal), file=sys.stderr)
            return EXIT_FAILED
        if self.settings.paths == ("-",):
            self._announce()
            return self._stdin()
        if not self.jobs and not (self.settings.changed_since or self.settings.staged):  # as ruff: a warning, exit 0
            print(f"{self._label('warning')} No Python files found under the given path(s)", file=sys.stderr)
        self._announce()
        started = self._verbose_start()
        outcomes = self._outcomes()
        if self.settings.add_noqa:
            return self._add_noqa(outcomes)
        notes = self._pin_floor(outcomes)
        self._verbose_end(outcomes, started)
        with reader_may_leave():
            self._output(outcomes, len(self.jobs), notes)
        self._messages(outcomes, len(self.jobs), notes)
        return self.exit_code(outcomes)

    def _outcomes(self) -> list[Outcome]:
        """The run's outcomes, with the notes the run adds: each file a family
        brought says so (in every format), and, with ``HJX100``, each unused suppression."""
        outcomes = self.migrate()
        for outcome in outcomes:
            outcome.findings[:0] = [note for note in self.taken if note.file == outcome.file]
        if reports_unused(self.settings):
            from .noqa import unused

            table = per_file_ignores(self.settings)
            unused(outcomes, {job.display: job.path for job in self.jobs if unused_reported_in(table, job.path)})
        return outcomes

    def _verbose_start(self) -> float:
        """``-v``: the configuration and the root, and the files to run on; the start's time."""
        import time

        if self.settings.verbose:
            found = self.settings.config_file or "none found (the defaults)"
            files = f"{len(self.jobs)} file{'' if len(self.jobs) == 1 else 's'} to run on"
            for line in (f"configuration: {found}", f"project root: {self.settings.root}", files):
                print(f"verbose: {line}", file=sys.stderr)
        return time.perf_counter()

    def _verbose_end(self, outcomes: list[Outcome], started: float) -> None:
        """``-v``: each file and what became of it, and the time the run took."""
        import time

        if not self.settings.verbose:
            return
        for outcome in sorted(outcomes, key=lambda o: o.file):
            state = "failed" if outcome.error else "changed" if outcome.changed else "unchanged"
            found = len(shown(outcome.findings))
            print(f"verbose: {outcome.file}: {state}" + (f", {found} findings" if found else ""), file=sys.stderr)
        print(f"verbose: {time.perf_counter() - started:.2f} s", file=sys.stderr)

    def _add_noqa(self, outcomes: list[Outcome]) -> int:
        """``--add-noqa``: a comment at each error left, nothing else written (exit 0, as ruff)."""
        from .noqa import add_noqa

        added, problems = add_noqa(outcomes, {job.display: job.path for job in self.jobs})
        for problem in problems:
            print(f"{self._label('warning')} {problem}", file=sys.stderr)
        for outcome in outcomes:
            if outcome.error:
                print(error_text(outcome, wants_color(sys.stderr, self.settings.color)), file=sys.stderr)
        print(f"Added {added} noqa directive{'' if added == 1 else 's'}.", file=sys.stderr)
        return EXIT_FAILED if any(o.error for o in outcomes) else EXIT_CLEAN

    def _announce(self) -> None:
        """The target and where it came from, before anything else (text, on
        stderr; JSON and GitHub reports hold it): a target that is not the
        project's word is said with how to pin one."""
        if self.settings.output_format != "text" or self.settings.quiet or self.origin is None:
            return
        from ..releases.target import unpinned

        print(f"target: {self.origin}", file=sys.stderr)
        warning = unpinned(*self.origin.astuple())
        if warning:
            print(f"{self._label('warning')} {warning}", file=sys.stderr)

    def _pin_floor(self, outcomes: list[Outcome]) -> tuple[str, ...]:
        """The note on the project's jax floor (or that it was raised): said
        even with ``-q`` (as in the pre-commit hooks), and in JSON and GitHub."""
        if not any(o.changes for o in outcomes):
            return ()  # nothing migrated: no floor to raise, and packaging is never imported
        from ..releases.pin_update import check

        note = check(outcomes, config.start(self.settings), self.settings.update_pin and self.settings.writes)
        return (note,) if note else ()

    def migrate(self) -> list[Outcome]:
        outcomes, after = self._run()
        return self._review(outcomes, after) if self.settings.interactive else outcomes

    def _journal_root(self) -> Path:
        """Where this run's journal lives: the project root of its paths together (``journal.root_for``)."""
        from ..sources.journal import root_for

        here = self.settings.here or Path.cwd()
        return root_for([here / p for p in self.settings.paths if p != "-"] or [here])

    def _run(self) -> tuple[list[Outcome], object]:
        """The run's outcomes, and with ``--interactive`` how to make a view of the
        tree its review decides in. The run's state is made here and gone on return."""
        from ..output.progress import Progress
        from ..run.runner import migrate
        from ..run.state import Run
        from ..tree.cache import default_dir

        workers = min(self.settings.jobs or os.cpu_count() or 1, max(len(self.jobs), 1))
        progress = Progress.for_settings(self.settings)
        cache_dir = None if self.settings.no_cache else default_dir()
        # A review asks of each unsafe fix itself (``Review.unsafe``): the run proposes, never applies.
        options = replace(self.options, unsafe_fixes=False) if self.settings.interactive else self.options
        with Run.start(
            self.jobs, options, self.settings.in_place, workers, cache_dir, self.listings, self.settings.here
        ) as run:
            run.journal_root = self._journal_root()
            outcomes = migrate(run, progress)
        return outcomes, run.after if self.settings.interactive else None

    def _review(self, outcomes: list[Outcome], after) -> list[Outcome]:
        from ..output.review import Review

        safe = replace(self.options, unsafe_fixes=False)  # the review offers each file's unsafe fix itself
        # The unsafe migrations decide in a view of their own: another file's answers differ with the fixes.
        fixing = after() if self.options.unsafe_fixes else None
        review = Review(safe, after(), color=self._color(), unsafe=fixing)
        jobs = {job.display: job for job in self.jobs}
        try:
            return [review.file(jobs[o.file], o) for o in outcomes]
        finally:
            review.finish()

    def exit_code(self, outcomes: list[Outcome]) -> int:
        if any(o.error for o in outcomes):
            return EXIT_FAILED
        # Errors fail a check even where nothing could be rewritten, and a
        # writing run while any is left (as ruff's --fix exits 1).
        pending = any(has_errors(o) or (o.changed and not self.settings.writes) for o in outcomes)
        return EXIT_PENDING if pending and not self.settings.exit_zero else EXIT_CLEAN

    def _stdin(self) -> int:
        """stdin migrated to stdout through the checks a file on disk passes:
        on any failure the input comes back byte for byte, and exit code 3."""
        from ..run.runner import failures_of, new_bytes
        from ..run.selection import excluded, spec
        from ..sources.files import decode

        raw = sys.stdin.buffer.read()
        name = self.settings.stdin_filename or "-"
        job = Job(Path(name), name, None)
        if self.settings.force_exclude and excluded(job, spec(self.settings.excludes), self.settings.root):
            sys.stdout.buffer.write(raw)  # excluded: passed through, as black and ruff do
            return EXIT_CLEAN
        outcome, data = Outcome(name), None
        with failures_of(outcome):
            data = new_bytes(decode(job.path, raw), job, outcome, self._migrate_text)
        with reader_may_leave():
            if outcome.error:
                sys.stdout.buffer.write(raw)  # nothing is lost: the input comes back as it was
            elif self.settings.check and not self.settings.diff:  # as for a file: its name, when it would change
                if data is not None or has_errors(outcome):
                    print(name)
            elif self.settings.diff:
                sys.stdout.write(outcome.diff)
            else:
                sys.stdout.buffer.write(raw if data is None else data)
        self._warnings([outcome])
        if outcome.error:
            return EXIT_FAILED
        pending = (data is not None or has_errors(outcome)) and (self.settings.check or self.settings.diff)
        return EXIT_PENDING if pending and not self.settings.exit_zero else EXIT_CLEAN

    def _migrate_text(self, text: str, job: Job):
        """stdin's text, migrated as the file it stands for would be (in this
        process: its parse is guarded as a single-process run's is)."""
        from ..engine.engine import migrate_source
        from ..run.runner import migrate_document, project_for

        if job.display == "-":
            return migrate_source(text, "-", self.options)
        return migrate_document(text, job, self.options, project_for([job], self.options))

    def _output(self, outcomes: list[Outcome], scanned: int, notes: tuple[str, ...] = ()) -> None:
        """stdout: the diffs, the files ``--check`` lists, or the JSON or GitHub report."""
        fmt = self.settings.output_format
        if self.settings.statistics and fmt != "github":  # ruff's: the counts instead of each one
            from ..output.statistics import statistics

            text = statistics(outcomes, fmt)
            if text:
                print(text)
        elif fmt == "json":
            print(
                as_json(
                    outcomes,
                    scanned,
                    self.target,
                    notes,
                    self.origin and self.origin.as_dict(),
                    self.settings.unsafe_fixes,
                )
            )
        elif fmt == "github":
            text = as_github(outcomes, notes, self.origin and self.origin.as_dict())
            if text:
                print(text)
        else:
            for outcome in outcomes:
                listed = self.settings.check and not self.settings.diff  # --check --diff: the diff, as black
                if listed and (outcome.changed or has_errors(outcome)):
                    print(outcome.file)
                elif not self.settings.writes and not listed and outcome.diff:  # reviewed diffs were shown
                    sys.stdout.write(colorize(outcome.diff) if self._color() else outcome.diff)

    def _messages(self, outcomes: list[Outcome], scanned: int, notes: tuple[str, ...] = ()) -> None:
        """stderr: the warnings, the summary and the pin's note (which the
        JSON and GitHub reports hold)."""
        if self.settings.output_format in ("json", "github"):
            return
        if not self.settings.statistics:
            self._warnings(outcomes)
        if not self.settings.quiet:
            named = self.origin is None  # else the run's start named the target
            print(summary(outcomes, scanned, self.target, self.settings.writes, named), file=sys.stderr)
        if self.settings.show_fixes:
            from ..output.statistics import fixes

            text = fixes(outcomes, self.settings.writes)
            if text:
                print(text, file=sys.stderr)
        for note in notes:
            print(note, file=sys.stderr)

    def _warnings(self, outcomes: list[Outcome]) -> None:
        color = wants_color(sys.stderr, self.settings.color)
        for outcome in outcomes:
            for line in grouped_text(shown(outcome.findings), color):
                print(line, file=sys.stderr)
            if outcome.error:
                print(error_text(outcome, color), file=sys.stderr)
        codes = sorted({f.rule for o in outcomes for f in shown(o.findings) if f.rule})
        if codes and not self.settings.quiet:  # the long explanation is a rule's, as ``ruff rule``'s
            print(f"help: `hijax-migrate rule CODE` explains a rule ({', '.join(codes)})", file=sys.stderr)

    def _label(self, severity: str) -> str:
        from ..output.report import label

        return label(severity, wants_color(sys.stderr, self.settings.color))

    def _color(self) -> bool:
        return wants_color(sys.stdout, self.settings.color)


def cut_off(journal) -> str:
    """What a run that finds a journal says (``sources.journal``)."""
    if journal.unreadable():
        return journal.unreadable()
    files = journal.files()
    return (
        f"hijax-migrate: error: an in-place run was cut off while writing {len(files)} "
        f"file{'' if len(files) == 1 else 's'} of one "
        f"family ({', '.join(files)}), so the family may be half migrated; "
        f"run `hijax-migrate --recover` to put them back as they were (journal: {journal.folder})"
    )


def recover(start: Path, explicit: str | None = None) -> int:
    """``--recover``: the cut-off unit's files put back, from the journal in
    the project's root or a folder above (``Journal.around``; ``explicit`` is not needed)."""
    from ..sources.journal import Journal, root_of

    if not os.path.lexists(start):
        print(f"hijax-migrate: error: --recover {start}: no such file or folder", file=sys.stderr)
        return EXIT_USAGE
    journal = Journal.around(root_of(start))
    unreadable = journal.pending() and journal.unreadable()
    if unreadable:  # one line, and nothing touched
        print(unreadable, file=sys.stderr)
        return EXIT_FAILED
    if not journal.pending():
        print(f"hijax-migrate: nothing to recover (no journal at {journal.folder})", file=sys.stderr)
        return EXIT_CLEAN
    restored, problems = journal.recover()
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    print(
        f"hijax-migrate: put back {'1 file as it was' if len(restored) == 1 else f'{len(restored)} files as they were'}"
        " before the cut-off run" + ("; the journal is kept until the errors above are fixed" if problems else ""),
        file=sys.stderr,
    )
    return EXIT_FAILED if problems else EXIT_CLEAN
