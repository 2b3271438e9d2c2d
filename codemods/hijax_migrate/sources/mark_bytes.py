"""Whether a text may hold a comment that leaves code alone (``engine/suppress.py``).

What a comment ``suppress.marks`` may read as a mark holds (more, never fewer; in any
case, as it reads them): a ``noqa`` marks only where it names an HJX code, and most
``noqa`` are ruff's or flake8's (jax's tree holds hundreds). The one test of a text, or
of a file's bytes, before it is tokenized for marks: by the suppression of a file, by
the walk of its families for marks in other files, and by the search of the tree for
files that may hold one (``tree.holders.MARKS``).
"""

from __future__ import annotations

import re

MAY_MARK = r"(?i)hijax-migrate:|noqa:[^\n]*hjx"
# The same over bytes lowered: a pattern of bytes ignores the case of ASCII letters
# alone, as ``bytes.lower`` lowers them; ten times faster than the pattern ignoring case.
_LOWERED = re.compile(MAY_MARK.removeprefix("(?i)").encode())


def may_mark(data: bytes) -> bool:
    """Do a file's bytes hold what a mark needs (``MAY_MARK``: its comments are then read for marks)?"""
    lowered = data.lower()
    if b"hijax-migrate:" in lowered:
        return True
    # jax's tree holds hundreds of ruff's and flake8's ``noqa``, none naming HJX: the pattern
    # (a line's scan) only where both words are there
    return b"noqa:" in lowered and b"hjx" in lowered and _LOWERED.search(lowered) is not None
