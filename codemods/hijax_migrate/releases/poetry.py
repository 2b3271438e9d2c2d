"""Poetry's version constraints (``^0.10``, ``~0.10.2``, ``0.10.*``, ``>=0.9,<0.12``)
as the PEP 440 specifiers they mean."""

from __future__ import annotations

import re

from packaging.specifiers import SpecifierSet


def poetry_specifier(constraint: str) -> SpecifierSet:
    """One SpecifierSet; of alternatives (``a || b``) the one allowing the newest
    release is taken, as a resolver would pick it. Raises ValueError."""
    from ..core.versions import RELEASES

    alternatives = [re.sub(r"([<>=!~^]=?)\s+", r"\1", alt).strip() for alt in constraint.split("||")]
    options = [
        SpecifierSet(",".join(filter(None, (_clause(c) for c in re.split(r"[,\s]+", alt))))) for alt in alternatives
    ]
    return max(options, key=lambda spec: max(map(_key, spec.filter(RELEASES)), default=()))


def _key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _clause(text: str) -> str:
    text = text.strip()
    if text in ("*", ""):
        return ""
    if text.startswith("^"):
        return _caret(text[1:])
    if text.startswith("~") and not text.startswith("~="):
        parts = text[1:].split(".")
        upper = _bump(parts[:2] if len(parts) > 1 else parts[:1])
        return f">={text[1:]},<{upper}"
    if text[0].isdigit():
        return f"=={text}"
    return text.replace(" ", "")


def _caret(version: str) -> str:
    """^1.2.3 is >=1.2.3,<2; ^0.2.3 is <0.3; ^0.0.3 is <0.0.4: the first non-zero part."""
    parts = version.split(".")
    nonzero = next((i for i, part in enumerate(parts) if part != "0"), len(parts) - 1)
    return f">={version},<{_bump(parts[: nonzero + 1])}"


def _bump(parts: list[str]) -> str:
    return ".".join([*parts[:-1], str(int(parts[-1]) + 1)])
