"""Line breaks as Python reads them: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a
physical line (the language reference's lexical analysis). The byte tests of the
pre-filter and of the index read lines by ``\\n``; a text with a lone carriage
return is given to them with each turned into a line feed, which keeps every offset
and makes their lines Python's (a file saved by classic Mac OS tools is one line to
a test that looks for ``\\n`` alone, and its code would read as the first line's comment).
Texts are cut into lines here too (``lines_kept``, ``lines_of``), where Python cuts them:
never at a form feed or ``\\u2028``, which ``str.splitlines`` also cuts at.
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


_LONE_CR_TEXT = re.compile(r"\r(?!\n)")


def fed(text: str) -> str:
    """``text`` with each lone ``\\r`` a ``\\n``: Python's lines, the same lines and columns."""
    return _LONE_CR_TEXT.sub("\n", text) if "\r" in text else text


def lone_returns(text: str) -> bool:
    """Does ``text`` end a line with a lone ``\\r``?"""
    return "\r" in text and text.count("\r") != text.count("\r\n")


def mixed(text: str) -> int | None:
    """The line of the first lone ``\\r`` of a text that also ends lines with ``\\n``: its
    lines end two ways, which no text of one kind of break gives back; None: one way."""
    if not lone_returns(text) or "\n" not in text:
        return None
    at = _LONE_CR_TEXT.search(text).start()
    return text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at) + 1


MIXED = (
    "ends lines with lone carriage returns and with line feeds: Python reads both as line "
    "breaks, but the rewritten lines would not come back as they were; left unchanged (save "
    "it with one kind of line break, then run again)"
)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def lines_kept(text: str) -> list[str]:
    """``text``'s lines with their ends, as ``str.splitlines(True)`` gives them but for the
    breaks Python's tokenizer (and CommonMark) does not read: a form feed, a vertical
    tab, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028``, ``\\u2029`` end no line of source."""
    return _LINE.findall(text)


def lines_of(text: str) -> list[str]:
    """``text``'s lines as Python's tokenizer ends them, ends dropped: the lines ``ast``
    numbers (a text ending with a break ends with an empty line, as ``str.split``)."""
    return text.split("\n") if "\r" not in text else _LINE_ENDS.split(text)  # most texts: no pattern
