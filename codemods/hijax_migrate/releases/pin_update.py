"""When migrated code needs a newer jax than the project's pin allows as its
floor: say so, and with ``--update-pin`` raise the floor in the file that
holds it, changing that one requirement and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.versions import Version, format_version
from .pins import Pin, find
from .target import floor

_HEAD = re.compile(r"^\s*[A-Za-z0-9._-]+\s*(?:\[[^\]]*\])?\s*")


def needed(outcomes) -> Version | None:
    """The oldest jax the migrated code runs on: the newest release of a rule that changed it."""
    from ..rules.registry import all_rules

    since = {rule.code: rule.since for rule in all_rules()}
    versions = [since[c.rule] for o in outcomes for c in o.changes if c.rule in since]
    return max(versions, default=None)


def check(outcomes, start: Path, update: bool) -> str | None:
    """A line for the summary when the pin's floor is older than the code needs."""
    if not any(o.changes for o in outcomes):
        return None
    pins = find(start)  # before the rules are loaded: most runs stop here
    low = floor(pins) if pins else None
    want = needed(outcomes) if low is not None else None
    if want is None or low >= want:
        return None
    pin = pins[0]
    where = f"{pin.path} allows jax {format_version(low)} (`{pin.raw}`)"
    if not update:
        return (
            f"note: the migrated code needs jax >= {format_version(want)}, but {where}; "
            "raise the floor (--update-pin does it)"
        )
    try:
        _rewrite(pin, format_version(want))
    except ValueError as error:
        return f"note: the migrated code needs jax >= {format_version(want)}, but {where}; {error}"
    return f"raised the jax floor to {format_version(want)} in {pin.path}"


def _rewrite(pin: Pin, want: str) -> None:
    text = pin.path.read_text()
    if pin.poetry:
        pattern = re.compile(
            r"""(^\s*jax\s*=\s*(?:\{[^}\n]*?version\s*=\s*)?["'])""" + re.escape(pin.raw) + r"""(["'])""", re.M
        )
        new, count = pattern.subn(lambda m: m.group(1) + _raised(pin.specifier, want) + m.group(2), text)
    else:  # as read, or as a TOML basic string writes it (quotes escaped)
        old, replacement = pin.raw, _requirement(pin.raw, pin.specifier, want)
        if text.count(old) != 1 and pin.path.suffix == ".toml":
            old, replacement = _toml_escaped(old), _toml_escaped(replacement)
        count = text.count(old)
        new = text.replace(old, replacement)
    if count != 1:
        raise ValueError(f"the requirement is not written once, as read, in {pin.path}: change it by hand")
    pin.path.write_text(new)


def _toml_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _requirement(raw: str, spec, want: str) -> str:
    """``raw`` with its version specifier raised; name, extras, marker and spacing kept."""
    head = _HEAD.match(raw).end()
    end = raw.find(";", head) if ";" in raw[head:] else len(raw)
    old = raw[head:end].rstrip()
    new = _raised(spec, want)
    new = f"({new})" if old.startswith("(") else new
    return raw[:head] + new + raw[head + len(old) :]


def _raised(spec, want: str) -> str:
    """The floor ``>=want`` with the upper bounds ``spec`` (a SpecifierSet) had."""
    from packaging.specifiers import SpecifierSet

    kept = []
    for clause in spec:
        version = clause.version
        if clause.operator in (">", ">="):
            continue
        if clause.operator == "~=" or (clause.operator == "==" and version.endswith(".*")):
            parts = version.removesuffix(".*").split(".")
            parts = parts[:-1] if clause.operator == "~=" else parts
            kept.append(f"<{'.'.join([*parts[:-1], str(int(parts[-1]) + 1)])}")
        elif clause.operator in ("==", "==="):
            raise ValueError(f"it is pinned exactly (`{clause}`): change it by hand")
        else:
            kept.append(str(clause))
    new = ",".join([f">={want}", *kept])
    if not SpecifierSet(new).contains(want):
        raise ValueError(f"its upper bound excludes {want}: change it by hand")
    return new
