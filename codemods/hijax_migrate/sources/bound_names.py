"""Does a name stand where Python may bind it? A byte test, read around one occurrence.

The pre-filter's ``bound NAME`` words: a file is read for ``NAME`` only where
some occurrence of it could be a binding on a class (``analysis.namespace``'s
forms), so that a name also common as a plain use (``remat``, ``dce``: jax's
own modules call and import them by the hundred) costs no parse of every file
that merely uses it. A superset of the forms, as the language reference gives
them (assignment statements, the other binding constructs of the execution
model, and the ways a namespace is written from outside):

- a target: ``NAME =``, ``NAME: T``, ``NAME :=``, ``NAME +=`` (and every
  augmented operator), ``NAME=`` (a keyword: ``dict(NAME=f)``, ``ns.update``);
- an element of a target list (``a, NAME = ...``, ``for (a, NAME) in``,
  ``import (a, NAME)``): the name between ``(``, ``[``, ``,`` or ``*`` (or a
  line's start) and ``,``, ``)`` or ``]``;
- the name after a binding keyword on its line: ``for``, ``with``/``as``,
  ``except``, ``import``, ``from``, ``def``, ``class``, ``type``, ``case``,
  ``del``, ``global``, ``nonlocal`` (``async`` too);
- an attribute written or deleted: ``X.NAME =``, ``X.NAME: T =``, ``X.NAME +=``,
  ``del X.NAME``;
- a string that is the name (``setattr(X, "NAME", f)``, ``{"NAME": f}``,
  ``vars(X)["NAME"]``, ``exec``'s text holds the forms above).

What it passes over is an occurrence that can only be a use: ``NAME(...)``,
``NAME.attr``, ``NAME[i]``, ``X.NAME`` read, ``x - NAME``, the name alone at a
line's end, or in a comment (a ``#`` before it on its line, and no quote: a ``#``
in a string opened lines above may be followed by its closing quote, then code);
and in a statement of the module itself (its line starts at the first column with
``from``, ``import``, ``def``, ``class``, ``for``... and holds no ``:`` or quote before
the name), the names it binds: ``from m import NAME`` and ``def NAME`` bind globals
(a class body is indented, or follows its ``:``; no bracket holds such a statement,
and where one goes on an expression, ``yield from`` or a comprehension, it binds
no name of a class). Any other line at the first column may go on a bracket opened
above it (``(a,`` then ``b, NAME) = f, g, h`` in a class body), which only a reading
from the file's start would see: it is read as any line.
"""

from __future__ import annotations

import re

_GAP = rb"(?:\s|\\\r?\n)*"  # blanks, line breaks (in brackets), lines continued
_TARGET = re.compile(_GAP + rb"(?:=(?!=)|:|[-+*/%&|^@]=|//=|\*\*=|>>=|<<=)")
_ELEMENT = re.compile(_GAP + rb"[,)\]]")
_ELEMENT_BEFORE = (b"(", b"[", b",", b"*")  # what stands before an element of a target list
_ATTRIBUTE_TARGET = re.compile(_GAP + rb"(?:=(?!=)|:(?!=)|[-+*/%&|^@]=|//=|\*\*=|>>=|<<=)")
_KEYWORDS = rb"for|with|as|except|import|from|def|class|type|case|del|global|nonlocal|async"
_AFTER_KEYWORD = re.compile(rb"(?:^|[^\w.])(?:" + _KEYWORDS + rb")(?!\w)")
_QUOTES = b"'\""
# A line at the first column starting so is a statement of the module's (no bracket holds
# one), or goes on an expression that binds no name of a class (``yield from``, a comprehension)
_STATEMENT = re.compile(rb"(?:from|import|def|class|async|for|with|except|del|global|nonlocal)(?!\w)")


def bound_at(data: bytes, at: int, end: int) -> bool:
    """May the whole name at ``data[at:end]`` be bound there (see the module's list)?"""
    if at and end < len(data) and data[at - 1] in _QUOTES and data[end] == data[at - 1]:
        return True
    line = data[_line_start(data, at) : at]
    if b"#" in line and not any(quote in line for quote in (b"'", b'"')):
        return False  # in a comment: no string holds the '#', none closes after it (a '#' in a text
        # opened lines above, then its closing quote, then code: ``abc # '''; NAME = f``)
    before = line.rstrip(b" \t\\")
    if before.endswith(b"."):
        return bool(_ATTRIBUTE_TARGET.match(data, end)) or line.lstrip().startswith(b"del")
    if _STATEMENT.match(line) and not any(c in line for c in b":'\""):
        return bool(_TARGET.match(data, end))  # the module's own statement: the names it binds are globals
    if _TARGET.match(data, end) or _AFTER_KEYWORD.search(line) is not None:
        return True
    return bool(_ELEMENT.match(data, end)) and (not before.strip() or before.endswith(_ELEMENT_BEFORE))


def _line_start(data: bytes, at: int) -> int:
    """Where the line holding ``at`` starts, lines continued by a backslash joined."""
    start = data.rfind(b"\n", 0, at) + 1
    while start:
        feed = start - 1 - (start >= 2 and data[start - 2] == 13)  # before its line feed (and \r)
        if not (feed and data[feed - 1] == 92):  # no backslash: the line is not continued
            return start
        start = data.rfind(b"\n", 0, feed) + 1
    return start
