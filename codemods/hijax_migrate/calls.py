"""Where a rule is used as a value elsewhere in the tree (``obj.vjp_bwd``).

Converting a rule to the accumulator form changes how it is called; a use in
another file of the tree, whatever it resolves to, cannot be ruled out, so it
counts. The tree is read once a process, and only when asked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .files import walk

_SCANS: dict[tuple[tuple[Path, ...], str], list[tuple[Path, int]]] = {}


def _scan(roots: tuple[Path, ...], attr: str) -> list[tuple[Path, int]]:
    pattern = re.compile(rf"\.\s*{attr}\b")
    found = []
    for root in roots:
        for path in walk(root) if root.is_dir() else []:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            match = pattern.search(text) if attr in text else None
            if match:
                found.append((path, text.count("\n", 0, match.start()) + 1))
    return found


def use_elsewhere(roots: tuple[Path, ...], attr: str, this_file: str) -> tuple[Path, int] | None:
    """The first ``.attr`` in another file of the trees (of ``roots``) that hold ``this_file``."""
    this = os.path.realpath(this_file)
    roots = tuple(r for r in roots if this.startswith(os.path.join(os.path.realpath(r), "")))
    if (roots, attr) not in _SCANS:
        _SCANS[roots, attr] = _scan(roots, attr)
    return next(((p, n) for p, n in _SCANS[roots, attr] if os.path.realpath(p) != this), None)
