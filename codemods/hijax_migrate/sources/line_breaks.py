"""Line breaks as Python reads them: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a
physical line (the language reference's lexical analysis). The byte tests of the
pre-filter and of the index read lines by ``\\n``; a text with a lone carriage
return is given to them with each turned into a line feed, which keeps every offset
and makes their lines Python's (a file saved by classic Mac OS tools is one line to
a test that looks for ``\\n`` alone, and its code would read as the first line's comment).
"""

from __future__ import annotations

import re

_LONE_CR = re.compile(rb"\r(?!\n)")


def as_line_feeds(data: bytes) -> bytes:
    """``data`` with each lone ``\\r`` a ``\\n``: the same length and offsets, Python's lines."""
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


def line_number(data: bytes, at: int) -> int:
    """The line (from 1) that holds offset ``at`` of ``data``, as Python counts lines."""
    return as_line_feeds(data).count(b"\n", 0, at) + 1

