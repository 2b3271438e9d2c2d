"""One invocation of the tool: options checked, files found, run, reported."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .cli import EXIT_CLEAN, EXIT_FAILED, EXIT_PENDING, _codes
from .model import Options
from .report import Outcome, as_github, as_json, colorize, error_text, summary, where
from .runner import Job, run
from .versions import format_version



class UsageError(Exception):
    pass


def options_from_args(args) -> tuple[Options, str]:
    """Options and a description of the target, from parsed command-line flags."""
    from . import registry, target

    start = Path(args.paths[0]) if args.paths and args.paths[0] != "-" else Path.cwd()
    try:
        version, source = target.choose(args.target_jax, start)
        only, skip = _codes(args.select), _codes(args.ignore)
        if only or skip:  # loading the rules imports libcst: only when asked
            registry.lookup(list(only + skip))
    except ValueError as error:
        raise UsageError(str(error)) from error
    options = Options(version, args.strategy, only, skip, tuple(args.base), args.black)
    return options, f"jax {format_version(version)} ({source})"


def _jobs(args) -> list[Job]:
    import pathspec

    from .files import walk

    exclude = pathspec.GitIgnoreSpec.from_lines(args.exclude) if args.exclude else None
    jobs: list[Job] = []
    for name in args.paths:
        path = Path(name)
        if path.is_dir():
            jobs += [Job(p, p.as_posix(), path) for p in walk(path, exclude)]
        elif path.exists() or path.is_symlink():
            jobs.append(Job(path, path.as_posix(), None))
        else:
            raise UsageError(f"{name}: no such file or directory")
    jobs = _included(jobs, args.include) if args.include else jobs
    if args.changed_since is not None or args.staged:
        jobs = _changed(jobs, args)
    return sorted(set(jobs), key=lambda job: job.display)


def _included(jobs: list[Job], patterns: list[str]) -> list[Job]:
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return [job for job in jobs
            if spec.match_file(job.path.relative_to(job.root).as_posix() if job.root else job.display)]


def _changed(jobs: list[Job], args) -> list[Job]:
    from .gitrepo import GitError, changed_files

    start = Path(args.paths[0])
    try:
        changed = changed_files(start, args.changed_since, args.staged,
                                untracked=getattr(args, "untracked", True))
    except GitError as error:
        raise UsageError(str(error)) from error
    return [job for job in jobs if job.path.resolve() in changed]


@dataclass
class Session:
    args: object
    options: Options
    target: str
    jobs: list[Job]

    @classmethod
    def from_args(cls, args) -> Session:
        if "-" in args.paths and len(args.paths) > 1:
            raise UsageError("'-' (stdin) must be the only PATH")
        if args.interactive and (args.paths == ["-"] or args.output_format != "text"):
            raise UsageError("--interactive reads answers from the terminal: not with '-' or "
                             "--output-format json/github")
        options, target = options_from_args(args)
        jobs = [] if args.paths == ["-"] else _jobs(args)
        return cls(args, options, target, jobs)

    def run(self) -> int:
        if self.args.paths == ["-"]:
            return self._stdin()
        outcomes = self.migrate()
        self._report(outcomes, len(self.jobs))
        return self.exit_code(outcomes)

    def migrate(self) -> list[Outcome]:
        from .progress import Progress

        outcomes = run(self.jobs, self.options, self.args.in_place, self.args.jobs or None,
                       Progress.for_args(self.args))
        return self._review(outcomes) if self.args.interactive else outcomes

    def _review(self, outcomes: list[Outcome]) -> list[Outcome]:
        from .review import Review
        from .runner import project_for

        review = Review(self.options, project_for(self.jobs, self.options), color=self._color())
        jobs = {job.display: job for job in self.jobs}
        return [review.file(jobs[o.file], o) for o in outcomes]

    def exit_code(self, outcomes: list[Outcome]) -> int:
        if any(o.error for o in outcomes):
            return EXIT_FAILED
        pending = any(o.changed for o in outcomes) and not (self.args.in_place or self.args.interactive)
        return EXIT_PENDING if pending else EXIT_CLEAN

    def _stdin(self) -> int:
        from .engine import MigrationError, migrate_source
        from .files import FileError, decode

        raw = sys.stdin.buffer.read()
        try:
            source = decode(Path("-"), raw)
            result = migrate_source(source.text, "-", self.options)
        except (FileError, MigrationError) as error:
            sys.stdout.buffer.write(raw)  # nothing is lost: the input comes back as it was
            print(error_text(Outcome("-", error=str(error), error_line=error.line)), file=sys.stderr)
            return EXIT_FAILED
        sys.stdout.buffer.write(result.code.encode(source.encoding))
        self._warnings([Outcome("-", result.report.changes, result.report.findings)])
        return EXIT_PENDING if result.code != source.text and self.args.check else EXIT_CLEAN

    def _report(self, outcomes: list[Outcome], scanned: int) -> None:
        fmt = self.args.output_format
        if fmt == "json":
            print(as_json(outcomes, scanned, self.target))
            return
        if fmt == "github":
            text = as_github(outcomes)
            if text:
                print(text)
            return
        writes = self.args.in_place or self.args.interactive  # reviewed diffs were shown already
        for outcome in outcomes:
            if self.args.check and outcome.changed:
                print(outcome.file)
            elif not writes and not self.args.check and outcome.diff:
                sys.stdout.write(colorize(outcome.diff) if self._color() else outcome.diff)
        self._warnings(outcomes)
        if not self.args.quiet:
            print(summary(outcomes, scanned, self.target, writes), file=sys.stderr)

    def _warnings(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            for finding in outcome.findings:
                print(f"warning: {where(finding.file, finding.line)}: {finding.message}", file=sys.stderr)
            if outcome.error:
                print(error_text(outcome), file=sys.stderr)

    def _color(self) -> bool:
        if self.args.color != "auto":
            return self.args.color == "always"
        return sys.stdout.isatty() and not os.environ.get("NO_COLOR")
