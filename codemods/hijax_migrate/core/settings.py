"""A run's settings: every flag of the command line, typed, each default
declared here and only here.

``command/`` makes them once from the parsed flags (``usage.settings_from``)
and merges ``[tool.hijax-migrate]`` under them (``config.apply``: the
command line over the configuration over these defaults); the layers below
read the fields they need. Nothing below ``command/`` sees argparse.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Not a rule of the registry: the report of suppressions that suppress nothing, as ruff's RUF100.
UNUSED_SUPPRESSION = "HJX100"


def codes(values: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """``--select A,B --select C`` as ``(A, B, C)``: how a list of codes is written, on the
    command line and in the configuration alike."""
    return tuple(code.strip() for value in values or () for code in value.split(",") if code.strip())


@dataclass(frozen=True)
class Settings:
    paths: tuple[str, ...] = (".",)  # as ruff: the current folder; '-' reads stdin
    # What the run does (one of in_place, check, diff, interactive; none: a diff)
    in_place: bool = False
    check: bool = False
    diff: bool = False
    interactive: bool = False
    list_rules: bool = False
    recover: bool = False
    # The migration (the configuration may set those ``config.KEYS`` names)
    target_jax: str | None = None  # None: the project's pin, else the installed jax, else the newest
    strategy: str = "auto"
    select: tuple[str, ...] = ()  # as given: codes or names, comma-separated
    extend_select: tuple[str, ...] = ()  # added to select (the flag's only)
    ignore: tuple[str, ...] = ()
    # (pattern, codes) of the configuration's per-file-ignores (``core/per_file.py``); no flag sets it
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    base: tuple[str, ...] = ()
    black: bool = False
    update_pin: bool = False
    unsafe_fixes: bool = False  # write the refusals' unsafe fixes (docs/refusals.md)
    # The files
    exclude: tuple[str, ...] = ()  # the flag's patterns, else the configuration's
    extend_exclude: tuple[str, ...] = ()  # added to them: the configuration's, then the flag's
    include: tuple[str, ...] = ()
    force_exclude: bool = False
    changed_since: str | None = None
    staged: bool = False
    stdin_filename: str | None = None
    config: str | None = None  # the pyproject.toml named; None: found from the first path
    # The output
    output_format: str = "text"
    color: str = "auto"
    quiet: bool = False
    exit_zero: bool = False
    jobs: int = 0  # worker processes; 0: all cores
    no_cache: bool = False
    # ruff's habits (docs/usage.md)
    statistics: bool = False  # counts by rule instead of the diffs and findings
    show_fixes: bool = False  # what was (or would be) changed, by file and rule
    add_noqa: bool = False  # a suppression comment at each remaining error, nothing else written
    show_settings: bool = False  # the resolved settings, each with where it came from; nothing run
    verbose: bool = False  # the configuration read, each file and what became of it, the time taken
    # --verify (docs/verify.md)
    verify: str | None = None
    verify_python: str | None = None
    verify_timeout: float | None = None  # None: verify's own default
    keep_verify_dir: bool = False
    # No flag sets these: the git hooks, which run a session of their own, do.
    family_files: bool = True  # widen files chosen in part to their classes' families
    here: Path | None = None  # where the run stands: files named alone import from here, and with
    # no path named pins are looked for here; None: the working folder (paths are read as named)
    # Where the values came from
    given: frozenset[str] = frozenset()  # the fields the configuration may set that the command line set
    from_config: frozenset[str] = frozenset()  # the configuration's keys whose values were taken
    root: Path | None = None  # the project root (``config``); None until the configuration is applied
    config_file: Path | None = None  # the configuration read; None: none

    @property
    def excludes(self) -> tuple[str, ...]:
        """Every pattern of paths to skip, relative to the project root."""
        return (*self.exclude, *self.extend_exclude)

    @property
    def writes(self) -> bool:
        """Does the run write files (``--in-place``, or those accepted in a review)?"""
        return self.in_place or self.interactive
