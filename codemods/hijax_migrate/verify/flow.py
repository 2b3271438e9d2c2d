"""A verify run from start to end: the copy made and migrated, CMD run on
both sides, the outcomes compared and reported, and with ``--in-place`` the
real files written only when nothing broke.

Exit codes: 0 nothing broke, 1 a test broke (nothing written), 2 usage (a
CMD that cannot start included), 3 a run timed out (nothing proved, nothing
written) or a file could not be processed, 130 interrupted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..command.usage import EXIT_CLEAN, EXIT_FAILED, EXIT_PENDING
from ..core.cwd import working_in
from ..core.errors import UsageError
from ..core.model import Outcome
from ..core.settings import Settings
from . import invocation, process, scratch, unsafe_fixes
from . import outcomes as reading
from .compare import BROKEN, rows
from .present import Present
from .report import Verification

DEFAULT_TIMEOUT = 1800.0


@dataclass(frozen=True)
class Plan:
    command: str
    root: Path  # the project's top: a repository's, else the configuration's folder
    python: str | None  # the after side's interpreter
    timeout: float


def check_usage(flags: Settings) -> None:
    if "-" in flags.paths:
        raise UsageError("--verify migrates files on disk: not with '-' (stdin)")
    for flag, given in (
        ("--check", flags.check),
        ("--interactive", flags.interactive),
        ("--staged", flags.staged),
        ("--update-pin", flags.update_pin),
    ):
        if given:
            raise UsageError(
                f"--verify with {flag}: not supported; --verify writes only with --in-place "
                "(raise the pin in a run of its own)"
            )
    if flags.verify_timeout is not None and flags.verify_timeout <= 0:
        raise UsageError(f"--verify-timeout must be more than 0 seconds, not {flags.verify_timeout}")


def plan_of(flags: Settings) -> Plan:
    """The plan of the command line's settings (the configuration not yet applied)."""
    from ..command import config

    check_usage(flags)
    settings = config.read(flags)
    start = config.start(settings)
    root = scratch.repository_top(start.resolve()) or settings.root.resolve()
    for path in settings.paths:
        if not Path(os.path.abspath(path)).is_relative_to(root):
            raise UsageError(f"--verify: {path} is outside the project ({root}), which is what is copied")
    timeout = DEFAULT_TIMEOUT if settings.verify_timeout is None else settings.verify_timeout
    return Plan(settings.verify, root, _python(settings), timeout)


def _python(settings: Settings) -> str | None:
    """--verify-python, else the configuration's (relative to its folder)."""
    from ..command import config

    given, where = settings.verify_python, "--verify-python"
    if "verify-python" in settings.from_config:
        given, where = str(settings.root / given), config.describe(settings.config_file, "verify-python")
    if given is None:
        return None
    python = os.path.abspath(os.path.expanduser(given))  # not resolved: a venv's python is a link
    if not (os.path.isfile(python) and os.access(python, os.X_OK)):
        raise UsageError(f"{where}: {given} is not an interpreter that can be run")
    return python


@dataclass
class Migrated:
    """The copy's migration: its outcomes (named as in the project), the run's
    target, how many files it scanned, and the changed files: where they are
    in the project, their bytes as migrated and as found there."""

    outcomes: list[Outcome]
    target: str
    scanned: int
    paths: dict[str, Path]  # a changed file's name in the outcomes -> its path in the project
    new: dict[Path, bytes]
    old: dict[Path, bytes]


def migrate_copy(flags: Settings, copy: scratch.Scratch) -> Migrated:
    """The tool's own session, run in place in the copy (from the current
    folder's place there, the paths named as they were, the copy's
    configuration applied): the working folder changes, as relative paths
    are read from it."""
    from ..command.session import Session

    there = invocation.folders(copy.root, copy.tree)[1]
    inside = Path.cwd().resolve().is_relative_to(copy.root)
    inner = replace(
        flags,
        in_place=True,
        diff=False,
        paths=tuple(_into(path, copy, inside) for path in flags.paths),
        config=flags.config and _into(flags.config, copy, True),
    )
    with working_in(there):
        session = Session.start(inner)
        found = session.migrate()
        files = {job.display: there / job.path for job in session.jobs}
    named = [_renamed(o, str(copy.tree), str(copy.root)) for o in found]
    paths = {n.file: copy.root / files[o.file].relative_to(copy.tree) for o, n in zip(found, named) if o.changed}
    new = {path: copy.inside(path).read_bytes() for path in paths.values()}
    return Migrated(named, session.target, len(session.jobs), paths, new, {p: p.read_bytes() for p in new})


def _into(path: str, copy: scratch.Scratch, relative_stays: bool) -> str:
    """A path as named on the command line, for a run in the copy: a relative
    one stays where the run starts from the current folder's place there, any
    other moves into the copy."""
    return path if relative_stays and not os.path.isabs(path) else str(copy.inside(Path(path)))


def _renamed(outcome: Outcome, old: str, new: str) -> Outcome:
    """An outcome of the copy, naming the project's files (for a path given as absolute)."""

    def name(text: str) -> str:
        return text.replace(old, new).replace(old.lstrip("/"), new.lstrip("/"))

    findings = [replace(f, file=name(f.file)) for f in outcome.findings]
    return replace(
        outcome, file=name(outcome.file), diff=name(outcome.diff), findings=findings, error=name(outcome.error)
    )


def run_sides(plan: Plan, copy: scratch.Scratch, say) -> tuple[reading.Outcomes, reading.Outcomes]:
    """CMD before the migration (in the project), then after it (in the copy);
    the after run is skipped when the before run timed out (nothing to compare)."""
    found = []
    for name, python in (("before", None), ("after", plan.python)):
        results = copy.top / f"{name}.jsonl"
        side = invocation.side(name, plan.command, plan.root, copy.tree, results, python)
        if found and found[0].ran.timed_out:
            found.append(reading.Outcomes(process.Ran(None, 0.0)))
            continue
        say(f"verify: running {' '.join(side.words)} {name} the migration, in {side.cwd}")
        ran = process.run(side, copy.top / f"{name}.log", plan.timeout)
        found.append(reading.read(results, ran))
    return found[0], found[1]


def verify(flags: Settings) -> int:
    """The verify run (``flags``: the command line's settings, to which the
    project's and then the copy's configuration are applied)."""
    plan, out = plan_of(flags), Present(flags)
    with scratch.made(plan.root, flags.keep_verify_dir) as copy:
        out.say(f"verify: migrating a copy of {plan.root} in {copy.tree}")
        unsafe_run = _unsafe_run(flags, copy, out.say)
        migrated = migrate_copy(replace(flags, unsafe_fixes=False), copy)
        fixes = unsafe_fixes.proposed(migrated, unsafe_run) if unsafe_run is not None else None
        if not migrated.new and fixes is None:
            out.report(migrated, None)
            return EXIT_FAILED if any(o.error for o in migrated.outcomes) else EXIT_CLEAN
        before, after = run_sides(plan, copy, out.say)
        decided, after, migrated = _kept_fixes(plan, copy, fixes, (before, after), migrated, out.say)
        found = Verification(plan.command, plan.python, before, after, rows(before, after), unsafe=decided)
        out.logs(copy, found, flags.keep_verify_dir)
    code = _code(found, migrated)
    if flags.in_place and code != EXIT_PENDING and not (before.ran.timed_out or after.ran.timed_out):
        code = max(code, write(migrated, found, out))
    out.report(migrated, found)
    return code


def _kept_fixes(plan: Plan, copy: scratch.Scratch, fixes, sides, migrated: Migrated, say):
    """(the unsafe fixes' decisions, CMD's after outcomes, the migration) with the kept fixes
    (``unsafe_fixes.kept``); none proposed, or a run timed out (nothing proved): as they were."""
    before, after = sides
    if fixes is None or before.ran.timed_out or after.ran.timed_out:
        return None, after, migrated
    decided = unsafe_fixes.kept(plan, copy, fixes, after, say)
    return decided, decided.after, unsafe_fixes.merged(migrated, fixes, decided)


def _unsafe_run(flags: Settings, copy: scratch.Scratch, say) -> Migrated | None:
    """With ``--unsafe-fixes``: the copy migrated with its unsafe fixes, from the text as found
    (a family's files together, as ``--in-place --unsafe-fixes`` writes them), then put back
    as found for the safe migration; else None."""
    if not flags.unsafe_fixes:
        return None
    say("verify: the unsafe fixes, migrated in the copy first (--unsafe-fixes)")
    found = migrate_copy(flags, copy)
    for path, data in found.old.items():
        copy.inside(path).write_bytes(data)
    return found


def _code(found: Verification, migrated: Migrated) -> int:
    if found.totals()[BROKEN]:
        return EXIT_PENDING
    if found.before.ran.timed_out or found.after.ran.timed_out or any(o.error for o in migrated.outcomes):
        return EXIT_FAILED
    return EXIT_CLEAN


def write(migrated: Migrated, found: Verification, out: Present) -> int:
    """The bytes that were tested, written to the project's files (atomically,
    metadata kept), each only if it is still as it was when the copy was
    migrated: a file edited meanwhile stops the write of all (exit 3)."""
    from ..sources.files import FileError, SourceFile, write_atomic

    moved = [path for path, data in migrated.old.items() if not path.is_file() or path.read_bytes() != data]
    if moved:
        out.warn(f"verify: nothing written: {moved[0]} changed while the tests ran; run again")
        return EXIT_FAILED
    code = EXIT_CLEAN
    for index, outcome in enumerate(migrated.outcomes):
        path = migrated.paths.get(outcome.file)
        try:
            if path is not None:
                write_atomic(SourceFile(path, migrated.old[path], "", ""), migrated.new[path])
                migrated.outcomes[index] = replace(outcome, written=True)
        except FileError as error:
            migrated.outcomes[index], code = replace(outcome, error=str(error)), EXIT_FAILED
    found.written = code == EXIT_CLEAN
    return code
