"""jax releases the tool knows, and parsing of version strings."""

from __future__ import annotations

import re

Version = tuple[int, int, int]

# Every release in which the hijax primitive API changed, oldest first.
KNOWN_RELEASES: tuple[Version, ...] = (
    (0, 8, 0), (0, 8, 1), (0, 9, 0), (0, 11, 0), (0, 11, 1), (0, 11, 2), (0, 12, 0),
)
LATEST: Version = KNOWN_RELEASES[-1]

_VERSION_RE = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def parse_version(text: str) -> Version:
    """'0.11' -> (0, 11, 0); '0.12.0.1' -> (0, 12, 0). Raises ValueError."""
    match = _VERSION_RE.match(text)
    if not match:
        raise ValueError(f"not a jax version: {text!r}")
    major, minor, patch = (int(part or 0) for part in match.groups())
    return (major, minor, patch)


def format_version(version: Version) -> str:
    return ".".join(str(part) for part in version)
