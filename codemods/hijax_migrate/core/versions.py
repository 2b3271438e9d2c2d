"""jax releases the tool knows, and parsing of version strings."""

from __future__ import annotations

import re

Version = tuple[int, int, int]

# Every jax release from the first hijax API on, as pip names them: a pin is
# read against these (``jax~=0.10.0`` is 0.10.2).
RELEASES: tuple[str, ...] = (
    "0.8.0",
    "0.8.1",
    "0.8.2",
    "0.8.3",
    "0.9.0",
    "0.9.0.1",
    "0.9.1",
    "0.9.2",
    "0.10.0",
    "0.10.1",
    "0.10.2",
    "0.11.0",
    "0.11.1",
    "0.11.2",
    "0.12.0",
    "0.12.0.1",
)
# Every release in which the hijax primitive API changed, oldest first.
KNOWN_RELEASES: tuple[Version, ...] = (
    (0, 8, 0),
    (0, 8, 1),
    (0, 9, 0),
    (0, 11, 0),
    (0, 11, 1),
    (0, 11, 2),
    (0, 12, 0),
)
LATEST: Version = KNOWN_RELEASES[-1]
OLDEST_TARGET: Version = (0, 8, 1)  # the first release there is anything to migrate to

# Names jax.experimental.hijax gained, and the release (read from the wheels):
# code that imports one is newer than an older target. (``HiPrim`` is judged
# by the classes that use it: an import beside the old name may be a switch.)
_HELPERS_0110 = (
    "MappingSpec",
    "linearize_from_jvp",
    "apply_derived_linearization",
    "vjp_fwd_from_jvp",
    "transpose_jvp",
    "vjp_fwd_from_lin",
    "transpose_linearized",
    "jvp_from_lin",
)
ADDED_NAMES: dict[str, Version] = {
    **dict.fromkeys(_HELPERS_0110, (0, 11, 0)),
    "vjp_from_jvp": (0, 11, 1),
    "vjp_from_lin": (0, 11, 1),
}
# jax's private module had these before the public one exported them: jax
# 0.10.2's own tests import MappingSpec from jax._src.hijax (0.9.0's has none).
_PRIVATE_SINCE: dict[str, Version] = {"MappingSpec": (0, 10, 0)}


def added_in(name: str, module: str) -> Version | None:
    """The release from which ``module``, one of jax's hijax modules, has ``name``
    (None: it is not one the table follows)."""
    if module == "jax._src.hijax" and name in _PRIVATE_SINCE:
        return _PRIVATE_SINCE[name]
    return ADDED_NAMES.get(name)


_VERSION_RE = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_TARGET_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:\.\d+)?$")


def parse_version(text: str) -> Version:
    """'0.11' -> (0, 11, 0); '0.12.0.1' -> (0, 12, 0). Raises ValueError."""
    match = _VERSION_RE.match(text)
    if not match:
        raise ValueError(f"not a jax version: {text!r}")
    major, minor, patch = (int(part or 0) for part in match.groups())
    return (major, minor, patch)


def parse_target(text: str) -> tuple[Version, str]:
    """A --target-jax value, strictly: ``0.x`` or ``0.12banana`` is a ValueError,
    and so is a release older than the first one there is to migrate to.
    A release newer than the newest known one is that one, with a note."""
    match = _TARGET_RE.match(text.strip())
    if not match:
        raise ValueError(f"--target-jax {text!r} is not a jax version (write e.g. 0.11.2 or 0.12)")
    version = tuple(int(part or 0) for part in match.groups())
    if version < OLDEST_TARGET:
        raise ValueError(
            f"--target-jax {text}: the oldest release to migrate to is "
            f"{format_version(OLDEST_TARGET)} (code for 0.8.0 is migrated from, not to)"
        )
    if version > LATEST:
        return LATEST, (f"--target-jax {text}, newer than any release the tool knows: treated as {RELEASES[-1]}")
    return version, "--target-jax"


def format_version(version: Version) -> str:
    return ".".join(str(part) for part in version)
