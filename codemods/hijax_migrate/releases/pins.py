"""Where a project pins jax, read as pip (and Poetry) read it.

A lock file names the exact version and wins. Otherwise the first file
holding a jax requirement (pyproject.toml, setup.cfg, requirements files)
decides; several requirements in it all apply. Requirements whose
environment markers do not hold for this Python are skipped, as pip does.

``packaging`` (15 ms to import) is imported once a file that may pin jax is
read: most trees have none where the tool looks, and a run stops there.

A ``pyproject.toml`` whose tables have another shape than the standards
(PEP 621, PEP 735, Poetry's, PDM's) give them is a usage error naming the file
and the key (``check_shapes``, run at start-up), never a traceback; a value of
the right shape that is no requirement is skipped, as pip skips nothing but
the tool cannot use it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError

LOCK_FILES = ("uv.lock", "poetry.lock", "pylock.toml")
PIN_FILES = ("pyproject.toml", "setup.cfg")


@dataclass(frozen=True)
class Pin:
    path: Path
    specifier: SpecifierSet  # noqa: F821 (packaging's, imported where a pin is read)
    raw: str  # the text as written in the file: a requirement, or a Poetry constraint
    poetry: bool = False


def find(start: Path) -> list[Pin]:
    """The jax pins that decide, from the folder of ``start`` upwards (to the
    repository root): a lock file's exact version, else the first file's."""
    folder = start if os.path.isdir(start) else start.parent
    for candidate in (folder.resolve(), *folder.resolve().parents):
        for path in _files(candidate):
            pins = read(path)
            if pins:
                return pins
        if os.path.exists(candidate / ".git"):
            break
    return []


REQUIREMENTS = "requirements*.txt"


def _files(folder: Path) -> list[Path]:
    names = [*LOCK_FILES, *PIN_FILES, "requirements.txt"]
    found = [folder / name for name in names] + sorted(folder.glob(REQUIREMENTS))
    return [path for path in dict.fromkeys(found) if os.path.isfile(path)]


def is_read(name: str) -> bool:
    """Is a file of this name (no folder) read where the pins and the
    configuration are looked for (``_files``, the configuration's
    ``pyproject.toml``)? The git hooks copy these out of the tree they check."""
    return name in LOCK_FILES or name in PIN_FILES or fnmatch.fnmatchcase(name, REQUIREMENTS)


def includes(text: str) -> list[str]:
    """The files a requirements text pulls in (``-r``, ``-c``), each relative
    to the file's folder, as ``_requirements`` follows them."""
    found = (_INCLUDE.match(re.sub(r"(^|\s)#.*", "", line).strip()) for line in _joined(text).splitlines())
    return [match.group(1) for match in found if match]


_INCLUDE = re.compile(r"(?:-r|-c|--requirement|--constraint)\s*=?\s*(\S+)")


def _joined(text: str) -> str:
    return re.sub(r"\\\n", "", text)


def _toml():
    """The TOML reader, imported where a TOML file is read (9 ms: a tree without one never needs it)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib


def read(path: Path) -> list[Pin]:
    try:
        text = path.read_text(errors="replace")
        if path.name in LOCK_FILES:
            return _locked(path, _toml().loads(text))
        if path.suffix == ".toml":
            return _pyproject(path, _toml().loads(text))
        if path.suffix == ".cfg":
            return _setup_cfg(path, text)
        return _requirements(path, set())
    except (OSError, ValueError, KeyError, TypeError):  # TOMLDecodeError is a ValueError
        return []  # unreadable: as if there were no pin


def _locked(path: Path, doc: dict) -> list[Pin]:
    """The locked jax for this Python (uv locks one per environment fork)."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    packages = doc.get("package", []) + doc.get("packages", [])  # uv/poetry; pylock
    versions = [
        Version(p["version"])
        for p in packages
        if isinstance(p, dict) and p.get("name") == "jax" and "version" in p and _for_here(p)
    ]
    if not versions:
        return []
    return [Pin(path, SpecifierSet(f"=={max(versions)}"), f"jax=={max(versions)}")]


def _for_here(package: dict) -> bool:
    from packaging.markers import Marker

    markers = package.get("resolution-markers") or [package.get("marker")]
    return any(text is None or _holds(Marker(text)) for text in markers)


def _pyproject(path: Path, doc: dict) -> list[Pin]:
    from .poetry import poetry_specifier

    lines, constraints = _shaped(path, doc)
    pins = [pin for line in lines for pin in _requirement(path, line)]
    for constraint in constraints:
        pins.append(Pin(path, poetry_specifier(constraint), constraint, poetry=True))
    return pins


def check_shapes(start: Path) -> None:
    """Each ``pyproject.toml`` ``find`` may read, from ``start`` upwards:
    UsageError for a table of another shape (not TOML at all: no pin there)."""
    folder = start if os.path.isdir(start) else start.parent
    for candidate in (folder.resolve(), *folder.resolve().parents):
        path = candidate / "pyproject.toml"
        try:
            doc = _toml().loads(path.read_text(errors="replace")) if os.path.isfile(path) else None
        except (OSError, ValueError):
            doc = None
        if doc is not None:
            _shaped(path, doc)
        if os.path.exists(candidate / ".git"):
            return


_LIST, _TABLE, _TEXT = "a list of strings", "a table", "a string"


def _shaped(path: Path, doc: dict) -> tuple[list[str], list[str]]:
    """The requirement lines and Poetry constraints of a ``pyproject.toml``,
    its tables checked for shape on the way (UsageError naming the key)."""
    at = _Shapes(path)
    project, tool = at.table(doc, "project"), at.table(doc, "tool")
    lines = at.strings(project.get("dependencies", []), "project.dependencies")
    for name, group in at.table(project, "optional-dependencies", "project.").items():
        lines += at.strings(group, f"project.optional-dependencies.{name}")
    for name, group in at.table(doc, "dependency-groups").items():  # PEP 735: strings, or {include-group}
        lines += [item for item in at.kind(group, f"dependency-groups.{name}", list, "a list") if isinstance(item, str)]
    for name, group in at.table(at.table(tool, "pdm", "tool."), "dev-dependencies", "tool.pdm.").items():
        lines += at.strings(group, f"tool.pdm.dev-dependencies.{name}")
    poetry = at.table(tool, "poetry", "tool.")
    tables = {key: at.table(poetry, key, "tool.poetry.") for key in ("dependencies", "dev-dependencies")}
    for name, group in at.table(poetry, "group", "tool.poetry.").items():
        key = f"tool.poetry.group.{name}"
        tables[f"group.{name}.dependencies"] = at.table(at.kind(group, key, dict, _TABLE), "dependencies", f"{key}.")
    return lines, [c for key, table in tables.items() for c in at.poetry_jax(table, f"tool.poetry.{key}.jax")]


class _Shapes:
    """Checks of one file's tables; each message names the file and the key."""

    def __init__(self, path: Path):
        self.path = path

    def kind(self, value, key: str, kind: type, wanted: str):
        if not isinstance(value, kind):
            raise UsageError(f"{self.path}: {key} must be {wanted}, not {value!r}")
        return value

    def table(self, parent: dict, name: str, prefix: str = "") -> dict:
        """The table ``name`` of ``parent`` (``prefix``: the parent's key), empty where absent."""
        return self.kind(parent.get(name, {}), prefix + name, dict, _TABLE)

    def strings(self, value, key: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise UsageError(f"{self.path}: {key} must be {_LIST}, not {value!r}")
        return list(value)

    def poetry_jax(self, table: dict, key: str) -> list[str]:
        """jax's constraint: a string, a table with ``version``, or a list
        of such tables (Poetry's multiple constraints: not read)."""
        constraint = table.get("jax")
        if constraint is None or isinstance(constraint, list):
            return []
        if isinstance(constraint, dict):
            version = constraint.get("version")
            return [] if version is None else [self.kind(version, f"{key}.version", str, _TEXT)]
        return [self.kind(constraint, key, str, "a string, a table or a list of tables")]


def _setup_cfg(path: Path, text: str) -> list[Pin]:
    import configparser  # only where a setup.cfg may pin jax: 7 ms of every run's start else

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
        values = [parser.get("options", "install_requires", fallback="")]
        if parser.has_section("options.extras_require"):
            values += [value for _, value in parser.items("options.extras_require")]
    except configparser.Error:
        return []  # unreadable: as if there were no pin
    return [pin for value in values for line in value.splitlines() for pin in _requirement(path, line)]


def _requirements(path: Path, seen: set[Path]) -> list[Pin]:
    """A requirements file, following ``-r``/``-c`` to the files it names."""
    if path.resolve() in seen or not os.path.isfile(path):
        return []
    seen.add(path.resolve())
    text = _joined(path.read_text(errors="replace"))
    pins = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        included = _INCLUDE.match(line)
        if included:
            pins += _requirements(path.parent / included.group(1), seen)
        elif line and not line.startswith("-"):
            pins += _requirement(path, re.split(r"\s+--", line)[0])
    return pins


def _requirement(path: Path, line: str) -> list[Pin]:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import InvalidSpecifier

    try:
        req = Requirement(line.strip())
    except (InvalidRequirement, InvalidSpecifier):
        return []
    if req.name.lower() != "jax" or (req.marker is not None and not _holds(req.marker)):
        return []
    return [Pin(path, req.specifier, line.strip())]


def _holds(marker) -> bool:
    try:
        return marker.evaluate({"extra": ""})
    except Exception:  # an unknown marker variable: count the requirement
        return True
