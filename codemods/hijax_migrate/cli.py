"""The ``hijax-migrate`` command line.

Start-up stays fast: libcst is imported only by the workers that migrate a
candidate file, never for ``--help``, ``--list-rules`` or a tree with
nothing to do.
"""

from __future__ import annotations

import signal
import sys

# Re-exported: the exit codes and the parser live in command.usage, which a
# run and the hooks import without importing this module.
from .command.usage import EXIT_CLEAN, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PENDING, EXIT_USAGE, build_parser, exit_now  # noqa: F401
from .core.errors import UsageError


def list_rules() -> str:
    from .rules.registry import all_rules

    return "\n".join(f"{r.code}  {r.name:<24} jax {r.release:<7} {r.summary}" for r in sorted(all_rules(), key=lambda r: r.code))


def run() -> None:
    """The console script and ``python -m hijax_migrate``."""
    exit_now(main())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("install-hook", "uninstall-hook"):
        from .git.hooks import command

        return command(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_rules:
        print(list_rules())
        return EXIT_CLEAN
    if args.recover:
        from pathlib import Path

        from .command.session import recover

        return recover(Path(args.paths[0]) if args.paths else Path.cwd(), args.config)
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("hijax-migrate: error: give at least one PATH (or - for stdin)", file=sys.stderr)
        return EXIT_USAGE
    return _interruptible(lambda: _start_and_run(args))


def _start_and_run(args) -> int:
    from .command.session import Session

    try:
        session = Session.from_args(args)
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
        print("hijax-migrate: interrupted; files already written are fully migrated, "
              "the others are untouched", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
    signal.signal(signal.SIGINT, previous_int)
    return code


if __name__ == "__main__":  # pragma: no cover
    run()
