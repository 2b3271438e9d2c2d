"""``[tool.hijax-migrate]`` in ``pyproject.toml``: found, read, checked, and
applied under the command line's ``Settings`` (a flag given wins).

Found as black and ruff find theirs: from the first path upwards, the first
``pyproject.toml`` with the table; the search stops at a repository's top.
Its folder is the project root, which exclude and include patterns are
relative to. A table of another shape (``tool = 1``, ``[tool]
hijax-migrate = 3``), here or in the pins' tables (``releases.pins``), is a
usage error naming the file and the key. So are ``per-file-ignores``
(``[tool.hijax-migrate.per-file-ignores]``, ``core/per_file.py``) whose
pattern is no glob, whose codes are no list of strings, or name no rule.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import UsageError
from ..core.model import STRATEGIES
from ..core.per_file import compiled
from ..core.settings import UNUSED_SUPPRESSION, Settings, codes
from ..sources.files import pattern_error

TABLE = "hijax-migrate"
# key -> (type, the field of ``Settings`` it sets)
KEYS = {
    "target-jax": (str, "target_jax"),
    "strategy": (str, "strategy"),
    "base": (list, "base"),
    "exclude": (list, "exclude"),
    "extend-exclude": (list, "extend_exclude"),
    "include": (list, "include"),
    "black": (bool, "black"),
    "verify-python": (str, "verify_python"),
    "select": (list, "select"),
    "ignore": (list, "ignore"),
    "per-file-ignores": (dict, "per_file_ignores"),  # pattern -> codes, checked and made a tuple by _per_file
}
_REPO_MARKS = (".git", ".hg")


@dataclass
class Config:
    path: Path | None = None  # None: no file, the built-in defaults
    root: Path = field(default_factory=Path.cwd)
    values: dict = field(default_factory=dict)

    def describe(self, key: str) -> str:
        return describe(self.path, key)


def describe(path: Path | None, key: str) -> str:
    """Where a value came from, in a message: the key and the file's path."""
    return f"{key} in [tool.{TABLE}] of {path}"


def _folders(start: Path):
    folder = (start if os.path.isdir(start) else start.parent).resolve()
    yield from (folder, *folder.parents)


def find(start: Path) -> Path | None:
    for folder in _folders(start):
        candidate = folder / "pyproject.toml"
        if os.path.isfile(candidate) and TABLE in _tool(candidate, _read(candidate)):
            return candidate
        if any(os.path.exists(folder / mark) for mark in _REPO_MARKS):
            return None
    return None


def project_root(start: Path) -> Path:
    """Without a configuration: the repository's top, else the start folder."""
    folders = list(_folders(start))
    return next((f for f in folders if any(os.path.exists(f / m) for m in _REPO_MARKS)), folders[0])


def _tool(path: Path, doc: dict) -> dict:
    """The file's ``[tool]`` table, checked for shape."""
    tool = doc.get("tool", {})
    if not isinstance(tool, dict):
        raise UsageError(f"{path}: tool must be a table, not {tool!r}")
    return tool


def _read(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"{path}: cannot read: {error}") from error


def load(start: Path, explicit: str | None = None) -> Config:
    from ..releases.pins import check_shapes

    check_shapes(start)
    path = Path(explicit) if explicit else find(start)
    if path is None:
        return Config(root=project_root(start))
    if explicit and not os.path.isfile(path):
        raise UsageError(f"--config {explicit}: no such file")
    table = _tool(path, _read(path)).get(TABLE, {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: tool.{TABLE} must be a table ([tool.{TABLE}]), not {table!r}")
    config = Config(path, path.resolve().parent, table)
    _check(config)
    return config


def _check(config: Config) -> None:
    for key, value in config.values.items():
        if key not in KEYS:
            raise UsageError(f"{config.path}: unknown key {key!r} in [tool.{TABLE}] (known: {', '.join(KEYS)})")
        kind = KEYS[key][0]
        if kind is dict:
            config.values[key] = _per_file(config, value)
            continue
        if kind is list and isinstance(value, str):
            value = config.values[key] = [value]
        if not isinstance(value, kind) or (kind is list and not all(isinstance(v, str) for v in value)):
            wanted = {str: "a string", list: "a list of strings", bool: "true or false"}[kind]
            raise UsageError(f"{config.describe(key)}: must be {wanted}, not {value!r}")
    for key in ("exclude", "extend-exclude", "include"):
        for pattern in config.values.get(key, ()):
            if pattern_error(pattern):
                raise UsageError(f"{config.describe(key)}: {pattern!r} is not a pattern ({pattern_error(pattern)})")
    if config.values.get("strategy", "auto") not in STRATEGIES:
        raise UsageError(f"{config.describe('strategy')}: must be one of {', '.join(STRATEGIES)}")


def _per_file(config: Config, table) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``per-file-ignores`` checked, as ``Settings.per_file_ignores`` holds it:
    each pattern a glob, each list of codes read as ``select``'s (commas split)."""
    if not isinstance(table, dict):
        raise UsageError(
            f"{config.describe('per-file-ignores')}: must be a table of patterns to lists of codes, not {table!r}"
        )
    rows = []
    for pattern, listed in table.items():
        key = _row(config, pattern)
        if not isinstance(listed, list) or not all(isinstance(code, str) for code in listed):
            raise UsageError(f"{key}: must be a list of strings, not {listed!r}")
        problem = _glob_error(pattern)
        if problem:
            raise UsageError(f"{key}: {pattern!r} is not a pattern ({problem})")
        rows.append((pattern, codes(listed)))
    _known(config, rows)
    return tuple(rows)


def _glob_error(pattern: str) -> str | None:
    """Why ``pattern`` is no glob of per-file-ignores; None: it is one."""
    if pattern.removeprefix("!") == "":
        return "empty"
    try:
        compiled("/", pattern.removeprefix("!"))
    except ValueError as error:
        return str(error)
    return None


def _known(config: Config, rows: list[tuple[str, tuple[str, ...]]]) -> None:
    """Each code names a rule, as ``select``'s do (prefixes, names), or is ``HJX100``."""
    from ..rules import registry  # only for a configuration that has the table

    for pattern, listed in rows:
        for code in listed:
            if is_unused_code(code):
                continue
            try:
                registry.lookup([code])
            except ValueError as error:
                raise UsageError(f"{_row(config, pattern)}: {error}") from None


def _row(config: Config, pattern: str) -> str:
    """A row of per-file-ignores in a message: its TOML key, in the file."""
    return config.describe(f"per-file-ignores.{json.dumps(pattern)}")


def is_unused_code(code: str) -> bool:
    """Does ``code`` name ``HJX100``, the report of unused suppressions (no rule of the registry)?"""
    return code.upper() == UNUSED_SUPPRESSION or code == "unused-suppression"


def start(settings: Settings) -> Path:
    """Where pins and the configuration are looked for: the first path, else
    the file stdin stands for, else where the run stands."""
    if settings.paths and settings.paths[0] != "-":
        return Path(settings.paths[0])
    return Path(settings.stdin_filename) if settings.stdin_filename else settings.here or Path.cwd()


def read(flags: Settings) -> Settings:
    """The command line's settings with the configuration it finds applied."""
    return apply(flags, load(start(flags), flags.config))


def apply(flags: Settings, config: Config) -> Settings:
    """The command line's settings (``usage.settings_from``), over the
    configuration's values, over the defaults: the fields it did not give take
    the configuration's. ``extend-exclude`` (file and flag) adds to whichever
    ``exclude`` won. Applied once: ``flags`` are the command line's alone."""
    taken = {
        key: value
        for key, value in config.values.items()
        if KEYS[key][1] not in flags.given and key != "extend-exclude"
    }
    values = {KEYS[key][1]: tuple(value) if isinstance(value, list) else value for key, value in taken.items()}
    extend = (*config.values.get("extend-exclude", ()), *flags.extend_exclude)
    return replace(
        flags, **values, extend_exclude=extend, from_config=frozenset(taken), root=config.root, config_file=config.path
    )
