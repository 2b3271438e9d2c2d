"""Where a rule is used as a value elsewhere in the tree (``obj.vjp_bwd``).

Converting a rule to the accumulator form changes how it is called; a use in
another file of the tree, whatever it resolves to, cannot be ruled out, so it
counts. The tree is read once a process, and only when asked.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from pathlib import Path

from .files import walk

_SCANS: dict[tuple[tuple[Path, ...], str], list[tuple[Path, int]]] = {}


def _scan(roots: tuple[Path, ...], attr: str) -> list[tuple[Path, int]]:
    found = []
    for root in roots:
        for path in (p for p in walk(root) if p.suffix == ".py") if root.is_dir() else []:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            line = _attribute_line(text, attr) if attr in text else None
            if line:
                found.append((path, line))
    return found


def _attribute_line(text: str, attr: str) -> int | None:
    """The line of the first ``.attr`` in code (not in a comment or string)."""
    previous = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and token.string == attr and previous == ".":
                return token.start[0]
            if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                previous = token.string
    except (tokenize.TokenError, SyntaxError):
        return 1 if re.search(rf"\.\s*{attr}\b", text) else None  # unreadable: count it
    return None


def use_elsewhere(roots: tuple[Path, ...], attr: str, this_file: str) -> tuple[Path, int] | None:
    """The first ``.attr`` in another file of the trees (of ``roots``) that hold ``this_file``."""
    this = os.path.realpath(this_file)
    roots = tuple(r for r in roots if this.startswith(os.path.join(os.path.realpath(r), "")))
    if (roots, attr) not in _SCANS:
        _SCANS[roots, attr] = _scan(roots, attr)
    return next(((p, n) for p, n in _SCANS[roots, attr] if os.path.realpath(p) != this), None)
