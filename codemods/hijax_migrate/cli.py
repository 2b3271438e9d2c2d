"""The ``hijax-migrate`` command line: the flags parsed, made ``Settings``
(``command.usage``), and handed to a session, ``--verify`` or ``--list-rules``.

Start-up stays fast: libcst is imported only by the workers that migrate a
candidate file, never for ``--help``, ``--list-rules`` or a tree with
nothing to do.
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

# Re-exported: the exit codes and the parser live in command.usage, which a
# run and the hooks import without importing this module.
from .command.usage import (  # noqa: F401
    EXIT_CLEAN,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_PENDING,
    EXIT_USAGE,
    UNUSED_SUPPRESSION,
    build_parser,
)
from .core.errors import UsageError
from .core.process import exit_now

# HJX100 is no rule of the registry: the report of ``command.noqa``.
UNUSED_EXPLAINED = (
    f"## {UNUSED_SUPPRESSION} `unused-suppression`\n\nAs ruff's RUF100, selected with `--extend-select "
    f"{UNUSED_SUPPRESSION}`: a note on each `# noqa: HJX...` or `# hijax-migrate: skip` comment that suppresses "
    "nothing at the target (its codes named). Remove the comment, or the codes it names that suppress nothing."
)

if TYPE_CHECKING:
    from .core.settings import Settings


def list_rules(rules: list | None = None, fmt: str = "text") -> str:
    """Rules (all of them by default) as ``hijax-migrate rule`` prints them in JSON, or one line each."""
    from .rules.registry import all_rules

    rules = sorted(all_rules() if rules is None else rules, key=lambda r: r.code)
    if fmt == "json":
        import json

        return json.dumps([_entry(r) for r in rules], indent=2)
    return "\n".join(f"{r.code}  {r.name:<24} jax {r.release:<7} {r.summary}" for r in rules)


def _entry(rule) -> dict:
    return {"code": rule.code, "name": rule.name, "release": rule.release, "summary": rule.summary}


def listing(active: list, target, fmt: str = "text") -> str:
    """``--list-rules``: every rule, each marked active or not at the target
    (``active``: the rules a run with these settings runs), the target first."""
    from .rules.registry import all_rules

    codes = {r.code for r in active}
    rules = sorted(all_rules(), key=lambda r: r.code)
    if fmt == "json":
        import json

        entries = [_entry(r) | {"active": r.code in codes, "status": _why(r, codes, target)} for r in rules]
        return json.dumps({"target": target.as_dict(), "rules": entries}, indent=2)
    lines = [f"{r.code}  {r.name:<24} jax {r.release:<7} {_why(r, codes, target):<12} {r.summary}" for r in rules]
    return "\n".join([f"target: {target}", *lines])


def _why(rule, active: set, target) -> str:
    """``active``; ``after target`` (a later release's); ``deselected`` (by select or ignore)."""
    if rule.code in active:
        return "active"
    return "after target" if rule.since > target.version else "deselected"


def _rules_at_target(flags: Settings) -> tuple[list, object]:
    """The rules a run with these flags (and the configuration) would run, and its target."""
    from .command import config
    from .command.session import resolved
    from .rules.registry import select

    options, target = resolved(config.read(flags))
    return select(options.target, options.only, options.skip), target


def explain_rule(argv: list[str]) -> int:
    """``hijax-migrate rule CODE``: one rule, its summary and example, as ``ruff rule`` does."""
    from .command.usage import StrictParser
    from .rules.registry import all_rules

    parser = StrictParser(prog="hijax-migrate rule", description="Explain one rule.")
    parser.add_argument("rule", metavar="CODE", help="a rule's code (HJX001) or name (bwd-returns-cotangents)")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    found = [r for r in all_rules() if args.rule.upper() == r.code or args.rule == r.name]
    if args.rule.upper() == UNUSED_SUPPRESSION or args.rule == "unused-suppression":
        print(UNUSED_EXPLAINED)
        return EXIT_CLEAN
    if not found:
        print(f"hijax-migrate: error: unknown rule {args.rule!r} (see --list-rules)", file=sys.stderr)
        return EXIT_USAGE
    if args.output_format == "json":
        print(list_rules(found, "json"))
    else:
        from .output.docs import rule_markdown

        print(rule_markdown(found[0]), end="")
    return EXIT_CLEAN


def run() -> None:
    """The console script and ``python -m hijax_migrate``."""
    exit_now(main())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("install-hook", "uninstall-hook"):
        from .git.hooks import command

        return command(argv)
    if argv and argv[0] == "rule":
        return explain_rule(argv[1:])
    from .command.usage import settings_from

    flags = settings_from(build_parser().parse_args(argv))
    if flags.list_rules:
        return _listed(flags)
    if flags.show_settings:
        return _shown_settings(flags)
    if flags.recover:
        from pathlib import Path

        from .command.session import recover

        return recover(Path(flags.paths[0]), flags.config)
    return _interruptible(lambda: _start_and_run(flags))


def _listed(flags: Settings) -> int:
    try:
        rules, target = _rules_at_target(flags)
    except UsageError as error:
        print(f"hijax-migrate: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    from .output.report import reader_may_leave
    from .releases.target import unpinned

    fmt = "json" if flags.output_format == "json" else "text"
    warning = unpinned(*target.astuple())
    if warning and fmt == "text" and not flags.quiet:
        print(f"warning: {warning}", file=sys.stderr)
    with reader_may_leave():  # ``--list-rules | head``
        print(listing(rules, target, fmt))
    return EXIT_CLEAN


def _shown_settings(flags: Settings) -> int:
    """``--show-settings``: the resolved settings, each with its source, and exit."""
    from .command import config
    from .command.session import resolved
    from .command.shown_settings import show

    try:
        settings = config.read(flags)
        _, target = resolved(settings)
    except UsageError as error:
        print(f"hijax-migrate: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    from .output.report import reader_may_leave

    with reader_may_leave():
        print(show(settings, target, "json" if flags.output_format == "json" else "text"))
    return EXIT_CLEAN


def _start_and_run(flags: Settings) -> int:
    from .command.session import Session

    try:
        if flags.verify is not None:
            from .verify.flow import verify

            return verify(flags)
        if flags.verify_python is not None:
            raise UsageError("--verify-python names the interpreter of a --verify run: give --verify CMD")
        session = Session.start(flags)
    except UsageError as error:
        print(f"hijax-migrate: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return session.run()


def _interruptible(run) -> int:
    """Ctrl-C and SIGTERM stop the run between files (a write in progress
    completes first): each file is either as it was or fully migrated."""

    def terminated(signum, frame):
        raise KeyboardInterrupt

    previous, previous_int = signal.signal(signal.SIGTERM, terminated), signal.getsignal(signal.SIGINT)
    try:
        code = run()
    except KeyboardInterrupt:
        # The run is over: report it, whatever comes. Ctrl-C stays ignored on
        # the way out, so a second one cannot turn exit 130 into a traceback
        # or a death by SIGINT.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print(
            "hijax-migrate: interrupted; files already written are fully migrated, the others are untouched",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
    signal.signal(signal.SIGINT, previous_int)
    return code


if __name__ == "__main__":  # pragma: no cover
    run()
