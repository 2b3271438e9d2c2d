"""The ``hijax-migrate`` command line.

Start-up stays fast: libcst is imported only by the workers that migrate a
candidate file, never for ``--help``, ``--list-rules`` or a tree with
nothing to do.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from . import __version__

EXIT_CLEAN, EXIT_PENDING, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # as a shell reports Ctrl-C


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hijax-migrate",
        description="Upgrade JAX hijax primitives (VJPHiPrimitive/HiPrim subclasses) to the API "
                    "of a jax release. Prints a diff by default; --in-place writes.",
        epilog="git hooks: hijax-migrate install-hook|uninstall-hook [--hook-type pre-push|pre-commit]")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; '-' reads stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--in-place", "-i", action="store_true", help="write the changes to the files")
    mode.add_argument("--check", action="store_true", help="list files that would change; write nothing")
    mode.add_argument("--interactive", action="store_true",
                      help="review each change (a class, or a file's module-wide renames) and "
                           "write the accepted ones, as git add -p does")
    parser.add_argument("--strategy", choices=("auto", "rename", "accum"), default="auto",
                        help="how value-returning vjp_bwd rules are fixed (default: auto)")
    parser.add_argument("--target-jax", metavar="VERSION",
                        help="jax release to migrate to (default: the project's pin, else the "
                             "installed jax, else the newest known)")
    parser.add_argument("--select", action="append", default=[], metavar="CODES",
                        help="run only these rules (codes or names, comma-separated)")
    parser.add_argument("--ignore", action="append", default=[], metavar="CODES",
                        help="do not run these rules")
    parser.add_argument("--black", action="store_true",
                        help="format the changed lines (only those) with black, in the project's style")
    parser.add_argument("--list-rules", action="store_true", help="print the rules and exit")
    parser.add_argument("--base", action="append", default=[], metavar="QUALNAME",
                        help="treat this class (e.g. mylib.prims.Base) as a hijax primitive base")
    parser.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                        help="gitignore-style pattern of paths to skip")
    parser.add_argument("--include", action="append", default=[], metavar="PATTERN",
                        help="gitignore-style pattern: only matching files are migrated")
    parser.add_argument("--changed-since", metavar="REF",
                        help="only files git reports changed since REF (committed, staged, "
                             "unstaged or untracked); bases are still found in the whole tree")
    parser.add_argument("--staged", action="store_true",
                        help="only files staged in git (bases still found in the whole tree)")
    parser.add_argument("--output-format", choices=("text", "json", "github"), default="text",
                        help="text (diff and summary), json, or github annotations")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the diff (auto: on a terminal, unless NO_COLOR is set)")
    parser.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                        help="worker processes (default: all cores)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--version", action="version", version=f"hijax-migrate {__version__}")
    return parser


def _codes(values: list[str]) -> tuple[str, ...]:
    return tuple(code.strip() for value in values for code in value.split(",") if code.strip())


def list_rules() -> str:
    from .registry import all_rules

    return "\n".join(f"{r.code}  {r.name:<24} jax {r.release:<7} {r.summary}" for r in sorted(all_rules(), key=lambda r: r.code))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("install-hook", "uninstall-hook"):
        from .hooks import command

        return command(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_rules:
        print(list_rules())
        return EXIT_CLEAN
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("hijax-migrate: error: give at least one PATH (or - for stdin)", file=sys.stderr)
        return EXIT_USAGE
    from .session import Session, UsageError

    try:
        session = Session.from_args(args)
    except UsageError as error:
        print(f"hijax-migrate: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return _interruptible(session.run)


def _interruptible(run) -> int:
    """Ctrl-C and SIGTERM stop the run between files (a write in progress
    completes first): each file is either as it was or fully migrated."""
    def terminated(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        return run()
    except KeyboardInterrupt:
        print("hijax-migrate: interrupted; files already written are fully migrated, "
              "the others are untouched", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
