"""What the command line accepts and what it returns: the argument parser,
the typed ``Settings`` its flags become (the only place a parsed
``Namespace`` is read), and the exit codes, where the command, a run and the
git hooks all reach them without importing each other."""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..core.settings import UNUSED_SUPPRESSION, Settings
from ..core.version import __version__

EXIT_CLEAN, EXIT_PENDING, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # as a shell reports Ctrl-C


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


class StrictParser(argparse.ArgumentParser):
    """No abbreviations (``--dif`` is no ``--diff``), and an error is one line,
    an unknown option with the nearest known one, as ruff suggests it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(allow_abbrev=False, **kwargs)

    def parse_args(self, args=None, namespace=None):
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.error(self._unknown(extra))
        return parsed

    def _unknown(self, extra: list[str]) -> str:
        import difflib

        word = next((w for w in extra if w.startswith("-")), None)
        if word is None:
            return f"unrecognized arguments: {' '.join(extra)}"
        known = [option for action in self._actions for option in action.option_strings]
        close = difflib.get_close_matches(word.partition("=")[0], known, n=1)
        return f"unknown option {word}" + (f"; did you mean {close[0]}?" if close else "")

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The flags. Those the configuration file can set default to None here,
    so that a flag given wins and one not given leaves the file's value."""
    parser = StrictParser(
        prog="hijax-migrate",
        description="Upgrade JAX hijax primitives (VJPHiPrimitive/HiPrim subclasses) to the API "
        "of a jax release. Prints a diff by default; --in-place writes.",
        epilog="One rule explained: hijax-migrate rule CODE. git hooks: hijax-migrate "
        "install-hook|uninstall-hook [--hook-type pre-push|pre-commit]. "
        "Settings: [tool.hijax-migrate] in pyproject.toml (see docs/configuration.md).",
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or directories (default: the current folder); '-' reads stdin"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--in-place", "-i", action="store_true", help="write the changes to the files")
    mode.add_argument(
        "--check",
        action="store_true",
        help="list files that would change; write nothing (with --diff, print the diff instead)",
    )
    # --check --diff is black's CI pair; --diff with a writing mode is refused in settings_from.
    parser.add_argument(
        "--diff", action="store_true", help="print the changes as a diff and write nothing (the default)"
    )
    mode.add_argument(
        "--interactive",
        action="store_true",
        help="review each change (a class, or a file's module-wide renames) and "
        "write the accepted ones, as git add -p does",
    )
    parser.add_argument(
        "--strategy",
        choices=("auto", "rename", "accum"),
        help="how value-returning vjp_bwd rules are fixed (default: auto)",
    )
    parser.add_argument(
        "--target-jax",
        metavar="VERSION",
        help="jax release to migrate to (default: the project's pin, else the installed jax, else the newest known)",
    )
    parser.add_argument(
        "--update-pin",
        action="store_true",
        help="raise the jax floor in the project's pin when the migrated code "
        "needs a newer jax than it allows; only with --in-place or --interactive",
    )
    parser.add_argument(
        "--select", action="append", metavar="CODES", help="run only these rules (codes or names, comma-separated)"
    )
    parser.add_argument(
        "--extend-select",
        action="append",
        metavar="CODES",
        help=f"add these rules to those selected ({UNUSED_SUPPRESSION}: report suppressions that suppress nothing)",
    )
    parser.add_argument("--ignore", action="append", metavar="CODES", help="do not run these rules")
    parser.add_argument(
        "--black",
        action="store_true",
        default=None,
        help="format the changed lines (only those) with black, in the project's style",
    )
    parser.add_argument(
        "--list-rules",
        action="store_true",
        help="print the rules that run at the target and exit (--output-format json: as JSON)",
    )
    parser.add_argument(
        "--base",
        action="append",
        metavar="QUALNAME",
        help="treat this class (e.g. mylib.prims.Base) as a hijax primitive base",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        metavar="PATTERN",
        help="gitignore-style pattern, relative to the project root, of paths to skip "
        "(replaces the configuration's exclude)",
    )
    parser.add_argument(
        "--extend-exclude",
        action="append",
        metavar="PATTERN",
        help="like --exclude, added to the configuration's patterns",
    )
    parser.add_argument(
        "--include",
        action="append",
        metavar="PATTERN",
        help="gitignore-style pattern: only matching files are migrated",
    )
    parser.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply the exclude patterns to files named on the command line too (as pre-commit names them)",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="the pyproject.toml to read [tool.hijax-migrate] from (default: the "
        "first one found from the first PATH upwards)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="NAME",
        help="with '-': the file name stdin stands for (pins, configuration, notebook or Markdown, messages)",
    )
    parser.add_argument(
        "--changed-since",
        metavar="REF",
        help="only files git reports changed since REF (committed, staged, "
        "unstaged or untracked); bases are still found in the whole tree",
    )
    parser.add_argument(
        "--staged", action="store_true", help="only files staged in git (bases still found in the whole tree)"
    )
    parser.add_argument(
        "--output-format",
        choices=("text", "json", "github"),
        default="text",
        help="text (diff and summary), json, or github annotations",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the diff (auto: on a terminal, unless NO_COLOR is set)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=0,
        metavar="N",
        help="worker processes, 1 or more (default: all cores; never more than files)",
    )
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when files would change (errors still exit 3)"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the cache of earlier runs' results"
    )
    _verify_options(parser)
    parser.add_argument(
        "--recover",
        action="store_true",
        help="put back the files of a family an in-place run was cut off while writing "
        "(killed outright): the journal in the project's root says which",
    )
    _ruff_habits(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--version", action="version", version=f"hijax-migrate {__version__}")
    return parser


def _ruff_habits(parser: argparse.ArgumentParser) -> None:
    """ruff's flags of the same names, doing what ruff's do (docs/usage.md)."""
    parser.add_argument(
        "--statistics", action="store_true", help="print how many changes and findings each rule has, not each one"
    )
    parser.add_argument(
        "--show-fixes", action="store_true", help="after the summary, what was changed (or would be), by file and rule"
    )
    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply the unsafe fixes some refusals carry (unproven renames: docs/refusals.md); "
        "without it they are only counted, and in JSON shown",
    )
    parser.add_argument(
        "--add-noqa",
        action="store_true",
        help="add a '# noqa: CODE' comment at each remaining error, and change nothing else",
    )
    parser.add_argument(
        "--show-settings",
        action="store_true",
        help="print the resolved settings, the target included, each with where it came from, and exit",
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="the configuration read, each file and its result, the time"
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def _verify_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("verify (docs/verify.md)")
    group.add_argument(
        "--verify",
        metavar="CMD",
        help="migrate a scratch copy, run CMD (the project's tests) before and after the "
        "migration, and report the tests it fixes and breaks; exit 1 if one broke; "
        "with --in-place, write only when none broke",
    )
    group.add_argument(
        "--verify-python",
        metavar="PATH",
        help="the interpreter for the run after the migration (e.g. a venv with the target "
        "jax): it replaces CMD's first word python, or pytest (as PATH -m pytest)",
    )
    group.add_argument(
        "--verify-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="stop each run of CMD, with its children, after this long (default: 1800)",
    )
    group.add_argument(
        "--keep-verify-dir", action="store_true", help="keep the scratch copy and the runs' output; its path is printed"
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The parsed flags as settings, the configuration not yet applied
    (``config.apply``); no PATH is the current folder, as in ruff."""
    for writer in ("in_place", "interactive"):
        for other in ("diff", "add_noqa"):
            if getattr(args, other) and getattr(args, writer):
                flags = (f"--{other.replace('_', '-')}", f"--{writer.replace('_', '-')}")
                build_parser().error(f"argument {flags[0]}: not allowed with argument {flags[1]}")
    return settings_of(**{**vars(args), "paths": args.paths or ["."]})


def settings_of(**values) -> Settings:
    """Settings as a command line giving ``values`` makes them (for those who
    run a session without one: the git hooks, the codemod): None is a flag
    not given, which the configuration may then set; lists become tuples."""
    from .config import KEYS

    given = {
        name: tuple(value) if isinstance(value, list) else value for name, value in values.items() if value is not None
    }
    configurable = {name for _, name in KEYS.values()}
    return Settings(**given, given=frozenset(given.keys() & configurable))


def hook_type(argv: list[str], choices: tuple[str, ...]) -> str:
    """``install-hook|uninstall-hook [--hook-type TYPE]``: the hook's type."""
    parser = StrictParser(prog=f"hijax-migrate {argv[0]}")
    parser.add_argument(
        "--hook-type", choices=choices, default=choices[0], help=f"which git hook (default: {choices[0]})"
    )
    return parser.parse_args(argv[1:]).hook_type
