"""One invocation of the tool: options checked, files found, run, reported."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UsageError
from ..core.model import Options, Outcome
from ..core.versions import format_version
from ..output.report import (
    as_github,
    as_json,
    colorize,
    error_text,
    finding_text,
    has_errors,
    reader_may_leave,
    shown,
    summary,
    wants_color,
)
from ..run.state import Job
from ..sources.files import Listings
from .usage import EXIT_CLEAN, EXIT_FAILED, EXIT_PENDING, codes


def _start(args) -> Path:
    """Where pins and the configuration are looked for."""
    if args.paths and args.paths[0] != "-":
        return Path(args.paths[0])
    return Path(args.stdin_filename) if getattr(args, "stdin_filename", None) else Path.cwd()


def _target(args) -> tuple:
    """The jax release and where it came from; a bad one is a usage error
    naming the flag or the configuration file that gave it."""
    from ..releases import target

    from_file = "target-jax" in getattr(args, "from_config", ())
    try:
        version, source = target.choose(args.target_jax, _start(args))
    except ValueError as error:
        raise UsageError(f"{args.settings.describe('target-jax')}: {error}" if from_file else str(error)) from error
    return version, args.settings.describe("target-jax") if from_file else source


def options_from_args(args) -> tuple[Options, str]:
    """Options and a description of the target, from parsed command-line flags
    (merged with the configuration file when the session read one)."""
    from ..rules import registry

    version, source = _target(args)
    only, skip = codes(args.select), codes(args.ignore)
    try:
        if only or skip:  # loading the rules imports libcst: only when asked
            registry.lookup(list(only + skip))
    except ValueError as error:
        raise UsageError(str(error)) from error
    options = Options(version, args.strategy or "auto", only, skip, tuple(args.base or ()), bool(args.black))
    return options, f"jax {format_version(version)} ({source})"


def _check_usage(args) -> None:
    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("'-' (stdin) must be the only PATH")
    if getattr(args, "update_pin", False) and not (args.in_place or args.interactive):
        raise UsageError("--update-pin writes the pin: use it with --in-place or --interactive")
    if args.paths == ["-"] and args.in_place:
        raise UsageError("--in-place with '-': stdin cannot be written back; the result goes to "
                         "stdout without it")
    if args.stdin_filename and args.paths != ["-"]:
        raise UsageError("--stdin-filename names stdin: give '-' as the only PATH")
    if args.interactive and (args.paths == ["-"] or args.output_format != "text"):
        raise UsageError("--interactive reads answers from the terminal: not with '-' or "
                         "--output-format json/github")
    if args.black:
        import importlib.util

        if importlib.util.find_spec("black") is None:
            raise UsageError("--black needs black, which is not installed here; install it with: "
                             f"{sys.executable} -m pip install 'hijax-migrate[black]'")


@dataclass
class Session:
    args: object
    options: Options
    target: str
    jobs: list[Job]
    listings: Listings = field(default_factory=Listings)  # the tree's walks made for the jobs: they serve the run
    taken: list = field(default_factory=list)  # a note on each file a chosen file's family brought

    @classmethod
    def from_args(cls, args) -> Session:
        from ..run.selection import jobs_for, with_families
        from . import config

        settings = config.load(_start(args), args.config)
        config.apply(args, settings)
        _check_usage(args)
        options, target = options_from_args(args)
        listings = Listings()
        jobs = [] if args.paths == ["-"] else jobs_for(args, settings.root, listings)
        jobs, taken = with_families(jobs, args, settings.root, options, listings)
        return cls(args, options, target, jobs, listings, taken)

    def run(self) -> int:
        from ..sources.journal import Journal

        if Journal(self.args.settings.root).pending():  # a unit of writes cut off: the tree is not to be read
            print(cut_off(Journal(self.args.settings.root)), file=sys.stderr)
            return EXIT_FAILED
        if self.args.paths == ["-"]:
            return self._stdin()
        if not self.jobs and not (self.args.changed_since or self.args.staged):  # as ruff: a warning, exit 0
            print(f"{self._label('warning')} No Python files found under the given path(s)", file=sys.stderr)
        outcomes = self.migrate()
        for outcome in outcomes:  # each file a family brought says so, in every format
            outcome.findings[:0] = [note for note in self.taken if note.file == outcome.file]
        notes = self._pin_floor(outcomes)
        with reader_may_leave():
            self._output(outcomes, len(self.jobs), notes)
        self._messages(outcomes, len(self.jobs), notes)
        return self.exit_code(outcomes)

    def _pin_floor(self, outcomes: list[Outcome]) -> tuple[str, ...]:
        """The note on the project's jax floor (or that it was raised): said
        even with ``-q`` (as in the pre-commit hooks), and in JSON and GitHub."""
        if not any(o.changes for o in outcomes):
            return ()  # nothing migrated: no floor to raise, and packaging is never imported
        from ..releases.pin_update import check

        note = check(outcomes, _start(self.args), self.args.update_pin and self._writes)
        return (note,) if note else ()

    def migrate(self) -> list[Outcome]:
        outcomes, after = self._run()
        return self._review(outcomes, after) if self.args.interactive else outcomes

    def _run(self) -> tuple[list[Outcome], object]:
        """The run's outcomes, and with ``--interactive`` the project its
        review decides in. The run's state is made here and gone on return."""
        from ..output.progress import Progress
        from ..run.runner import migrate
        from ..run.state import Run
        from ..tree.cache import default_dir

        workers = min(self.args.jobs or os.cpu_count() or 1, max(len(self.jobs), 1))
        progress = Progress.for_args(self.args)
        cache_dir = None if self.args.no_cache else default_dir()
        with Run.start(self.jobs, self.options, self.args.in_place, workers, cache_dir, self.listings) as run:
            run.journal_root = self.args.settings.root
            outcomes = migrate(run, progress)
        return outcomes, run.after() if self.args.interactive else None

    def _review(self, outcomes: list[Outcome], project) -> list[Outcome]:
        from ..output.review import Review

        review = Review(self.options, project, color=self._color())
        jobs = {job.display: job for job in self.jobs}
        return [review.file(jobs[o.file], o) for o in outcomes]

    @property
    def _writes(self) -> bool:
        """Does the run write files (``--in-place``, or those accepted in a review)?"""
        return self.args.in_place or self.args.interactive

    def exit_code(self, outcomes: list[Outcome]) -> int:
        if any(o.error for o in outcomes):
            return EXIT_FAILED
        # Errors fail a check even where nothing could be rewritten, and a
        # writing run while any is left (as ruff's --fix exits 1).
        pending = any(has_errors(o) or (o.changed and not self._writes) for o in outcomes)
        return EXIT_PENDING if pending and not self.args.exit_zero else EXIT_CLEAN

    def _stdin(self) -> int:
        """stdin migrated to stdout through the checks a file on disk passes:
        on any failure the input comes back byte for byte, and exit code 3."""
        from ..run.runner import failures_of, new_bytes
        from ..run.selection import excluded, spec
        from ..sources.files import decode

        raw = sys.stdin.buffer.read()
        name = self.args.stdin_filename or "-"
        job = Job(Path(name), name, None)
        if self.args.force_exclude and excluded(job, spec(self.args.exclude), self.args.settings.root):
            sys.stdout.buffer.write(raw)  # excluded: passed through, as black and ruff do
            return EXIT_CLEAN
        outcome, data = Outcome(name), None
        with failures_of(outcome):
            data = new_bytes(decode(job.path, raw), job, outcome, self._migrate_text)
        with reader_may_leave():
            if outcome.error:
                sys.stdout.buffer.write(raw)  # nothing is lost: the input comes back as it was
            elif self.args.check:  # as for a file: its name, when it would change
                if data is not None or has_errors(outcome):
                    print(name)
            elif self.args.diff:
                sys.stdout.write(outcome.diff)
            else:
                sys.stdout.buffer.write(raw if data is None else data)
        self._warnings([outcome])
        if outcome.error:
            return EXIT_FAILED
        pending = (data is not None or has_errors(outcome)) and (self.args.check or self.args.diff)
        return EXIT_PENDING if pending and not self.args.exit_zero else EXIT_CLEAN

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
        fmt = self.args.output_format
        if fmt == "json":
            print(as_json(outcomes, scanned, self.target, notes))
        elif fmt == "github":
            text = as_github(outcomes, notes)
            if text:
                print(text)
        else:
            for outcome in outcomes:
                if self.args.check and (outcome.changed or has_errors(outcome)):
                    print(outcome.file)
                elif not self._writes and not self.args.check and outcome.diff:  # reviewed diffs were shown
                    sys.stdout.write(colorize(outcome.diff) if self._color() else outcome.diff)

    def _messages(self, outcomes: list[Outcome], scanned: int, notes: tuple[str, ...] = ()) -> None:
        """stderr: the warnings, the summary and the pin's note (which the
        JSON and GitHub reports hold)."""
        if self.args.output_format in ("json", "github"):
            return
        self._warnings(outcomes)
        if not self.args.quiet:
            print(summary(outcomes, scanned, self.target, self._writes), file=sys.stderr)
        for note in notes:
            print(note, file=sys.stderr)

    def _warnings(self, outcomes: list[Outcome]) -> None:
        color = wants_color(sys.stderr, self.args.color)
        for outcome in outcomes:
            for finding in shown(outcome.findings):
                print(finding_text(finding, color), file=sys.stderr)
            if outcome.error:
                print(error_text(outcome, color), file=sys.stderr)

    def _label(self, severity: str) -> str:
        from ..output.report import label

        return label(severity, wants_color(sys.stderr, self.args.color))

    def _color(self) -> bool:
        return wants_color(sys.stdout, self.args.color)


def cut_off(journal) -> str:
    """What a run that finds a journal says (``sources.journal``)."""
    files = journal.files()
    return (f"hijax-migrate: error: an in-place run was cut off while writing {len(files)} files of one "
            f"family ({', '.join(files)}), so the family may be half migrated; "
            f"run `hijax-migrate --recover` to put them back as they were (journal: {journal.folder})")


def recover(start: Path, config: str | None = None) -> int:
    """``--recover``: the cut-off unit's files put back, from the journal in the project's root."""
    from ..sources.journal import Journal
    from . import config as settings

    journal = Journal(settings.load(start, config).root)
    if not journal.pending():
        print(f"hijax-migrate: nothing to recover (no journal at {journal.folder})", file=sys.stderr)
        return EXIT_CLEAN
    restored, problems = journal.recover()
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"hijax-migrate: put back {len(restored)} files as they were before the cut-off run"
          + ("; the journal is kept until the errors above are fixed" if problems else ""), file=sys.stderr)
    return EXIT_FAILED if problems else EXIT_CLEAN
