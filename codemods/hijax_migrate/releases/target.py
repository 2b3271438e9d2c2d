"""Which jax release to migrate to: the flag, the tree itself when it is jax,
the project's pins, the installed jax, the newest release known.

The last two are not the project's word: they change with the environment
the tool runs in (a developer's venv with jax, pre-commit's own without), so
a run whose target comes from them says so at its start (``unpinned``).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from ..core.versions import LATEST, RELEASES, Version, format_version, parse_target, parse_version

# Releases after every known one, to tell a pin that allows only those.
_BEYOND = (f"{RELEASES[-1]}.1", f"0.{LATEST[1]}.{LATEST[2] + 1}", f"0.{LATEST[1] + 1}", "0.99", "1.0", "99")


def newest_allowed(pins) -> tuple[Version, str] | None:
    """The newest known release all ``pins`` allow (a note when they allow
    only releases newer than the tool knows)."""
    spec = _joined(pins)
    allowed = list(spec.filter(RELEASES))
    if allowed:
        return parse_version(allowed[-1]), ""
    if any(spec.contains(v) for v in _BEYOND):
        return LATEST, f"; newer than any release the tool knows: treated as {RELEASES[-1]}"
    return None


def floor(pins) -> Version | None:
    """The oldest known release the pins allow: what the code must still run on."""
    allowed = list(_joined(pins).filter(RELEASES))
    return parse_version(allowed[0]) if allowed else None


def _joined(pins):
    from packaging.specifiers import SpecifierSet

    spec = SpecifierSet()
    for pin in pins:
        spec &= pin.specifier
    return spec


def from_pins(start: Path) -> tuple[Version, str] | None:
    from . import pins

    found = pins.find(start)
    chosen = newest_allowed(found) if found else None
    if chosen is None:
        return None
    version, note = chosen
    written = ", ".join(dict.fromkeys(p.raw for p in found))  # each requirement once, however often listed
    if not any(str(p.specifier) for p in found):  # ``jax`` alone: required, but no version pinned
        return version, f"{found[0].path} requires jax with no version ({written}): the newest release the tool knows"
    return version, f"pinned in {found[0].path}: {written}{note}"


def jax_tree(start: Path) -> tuple[Version, str] | None:
    """A tree that is jax (it holds ``jax/_src/hijax.py``) targets its own version."""
    folder = (start if os.path.isdir(start) else start.parent).resolve()
    for candidate in (folder, *folder.parents):
        version_file = candidate / "jax" / "version.py"
        if os.path.isfile(candidate / "jax" / "_src" / "hijax.py") and os.path.isfile(version_file):
            match = re.search(
                r"""^_version\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", version_file.read_text(errors="replace"), re.M
            )
            if match:
                return min(parse_version(match.group(1)), LATEST), f"the jax tree's own {version_file}"
        if os.path.exists(candidate / ".git"):
            break
    return None


def from_installed() -> tuple[Version, str] | None:
    from importlib import metadata  # reads the metadata only; jax is not imported

    try:
        return parse_version(metadata.version("jax")), INSTALLED
    except (metadata.PackageNotFoundError, ValueError):
        return None


def choose(flag: str | None, start: Path | None) -> tuple[Version, str]:
    """Raises ValueError for a flag that is no jax version, or one the tool cannot target."""
    own = jax_tree(start) if start is not None else None
    if flag:
        version, source = parse_target(flag)
        if own is not None and version > own[0]:  # never past the tree's own jax
            return own[0], f"{own[1]}; --target-jax {flag} is newer than the tree"
        return version, source
    found = own or (from_pins(start) if start is not None else None) or from_installed()
    return found or (LATEST, NEWEST)


# The sources that are not the project's word (``unpinned``).
INSTALLED, NEWEST = "the jax installed beside the tool", "the newest release the tool knows"


def unpinned(version: Version, source: str) -> str:
    """What a run says at its start when its target is not the project's
    word (nothing when it is): why another environment may choose another
    target, and how to pin one."""
    if source not in (INSTALLED, NEWEST):
        return ""
    shown = format_version(version)
    why = (
        f"{INSTALLED} ({sys.executable})"
        if source == INSTALLED
        else f"{NEWEST}, as no jax is installed beside it ({sys.executable})"
    )
    return (
        f"the project pins no jax, so the target is {why}; another environment may choose another. "
        f"Pin it: jax>={shown} in pyproject.toml's dependencies (or requirements.txt), "
        f'or target-jax = "{shown}" in [tool.hijax-migrate], or --target-jax {shown}'
    )
