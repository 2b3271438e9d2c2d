"""Which jax release to migrate to: the flag, the project's pins, the installed jax."""

from __future__ import annotations

import re
from pathlib import Path

from .versions import KNOWN_RELEASES, LATEST, Version, format_version, parse_version

_PIN = re.compile(r"""(?<![\w.-])jax(?:\[[^\]]*\])?\s*((?:[<>=!~]=?\s*[\w.*]+\s*,?\s*)+)""")
_PIN_FILES = ("pyproject.toml", "setup.cfg", "requirements.txt")


def _from_specifiers(spec: str) -> Version | None:
    """The newest known release a jax specifier like '>=0.9,<0.12' allows."""
    clauses = re.findall(r"([<>=!~]=?)\s*([\w.*]+)", spec)
    exact = [parse_version(v) for op, v in clauses if op in ("==", "===")]
    if exact:
        return exact[0]
    allowed = list(KNOWN_RELEASES)
    for op, text in clauses:
        bound = parse_version(text)
        keep = {"<": lambda r: r < bound, "<=": lambda r: r <= bound,
                ">": lambda r: r > bound, ">=": lambda r: r >= bound,
                "~=": lambda r: r >= bound}.get(op, lambda r: True)
        allowed = [r for r in allowed if keep(r)]
    return allowed[-1] if allowed else None


def _pin_files(start: Path) -> list[Path]:
    folder = start if start.is_dir() else start.parent
    for candidate in (folder.resolve(), *folder.resolve().parents):
        files = [candidate / n for n in _PIN_FILES] + sorted(candidate.glob("requirements*.txt"))
        present = [f for f in dict.fromkeys(files) if f.is_file()]
        if present or (candidate / ".git").exists():
            return present
    return []


def from_pins(start: Path) -> tuple[Version, str] | None:
    for path in _pin_files(start):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for match in _PIN.finditer(text):
            version = _from_specifiers(match.group(1))
            if version is not None:
                return version, f"pinned in {path}"
    return None


def from_installed() -> tuple[Version, str] | None:
    from importlib import metadata  # reads the metadata only; jax is not imported

    try:
        return parse_version(metadata.version("jax")), "the jax installed beside the tool"
    except (metadata.PackageNotFoundError, ValueError):
        return None


def choose(flag: str | None, start: Path | None) -> tuple[Version, str]:
    if flag:
        return parse_version(flag), "--target-jax"
    found = (from_pins(start) if start is not None else None) or from_installed()
    return found or (LATEST, f"the newest release the tool knows ({format_version(LATEST)})")
