"""Which names a file's bytes may subclass, import or alias, read by a
pattern over the bytes, never a parse: what the index of names and the
searches for subclasses (``index.Index``) keep of each file of the tree.
"""

from __future__ import annotations

import hashlib
import re

from ..core.brackets import closing, ended_early, generic_arguments
from ..core.line_breaks import as_line_feeds
from ..sources.files import declared_encoding, python_name

# Names in the bases of class statements, names imported, and names a name
# may be bound to (``B = base.Base``, below): generously (a word too many costs a
# summary; one missed, a subclass unseen). A superset of what Python reads as
# a class statement: ``class`` anywhere a word starts (after a form feed, on
# a line continued by a backslash, inside a string), whitespace, comments and
# continuations between its tokens, calls and brackets among its bases; a
# class's name may be any identifier, with type parameters; an import may go
# on past a backslash.
_NAME = rb"(?:\w|[\x80-\xff])+"
_WS = rb"(?:[ \t\f]|\\(?:\r\n|\r|\n))"
_STARTS = rb"(?<![\w\x80-\xff.])"
_IN_BRACKETS = rb"\(((?:[^)#]|#[^\n]*)*)\)"
_BASES = rb"\(([\s\S]{0,4000}?)\)" + _WS + rb"*:"  # up to the colon: nested calls, strings, comments
_NAMES_THAT_SUBCLASS = re.compile(
    _STARTS
    + rb"(?:class"
    + _WS
    + rb"+"
    + _NAME
    + _WS
    + rb"*(?:\[[^\n]*?\]"
    + _WS
    + rb"*)?(?:"
    + _BASES
    + rb"|"
    + _IN_BRACKETS
    + rb")"
    + rb"|import"
    + _WS
    + rb"+(?:"
    + _IN_BRACKETS
    + rb"|((?:[^\n\\]|\\[\s\S])*)))"
)
# Of a value a name is bound to, what a summary follows (``ast_summary._value_refs``) is
# among: the dotted name after an ``=`` (an assignment's, a walrus's), past brackets,
# blanks, comments and lines continued (``B = (base.Base)``, ``B = f(x)``, ``B = (\n
# base.Base)``), and each after ``else``, ``or`` or ``and`` (an arm of ``A if c else D``,
# ``A or D``, however long the condition). A comment runs to its line's end: one that
# could stop early would let ``# # #`` lines match in many ways.
_GAP = rb"(?:\s|\\\r?\n|#[^\n]*(?![^\n]))"
_DOTTED = rb"([\w\x80-\xff]+(?:" + _GAP + rb"*\." + _GAP + rb"*[\w\x80-\xff]+)*)"
_HEAD = rb"(?:\(|" + _GAP + rb")*" + _DOTTED
# Each pattern starts with its literal, which ``re`` finds as ``bytes.find`` would: any
# ``=`` (a keyword's value, ``==``'s right side too: words too many), and the three words
# (inside another word too, ``for x``: words too many again).
_FOLLOWED = tuple(
    re.compile(literal + _HEAD)
    for literal in (rb"=", rb"else(?![\w\x80-\xff])", rb"or(?![\w\x80-\xff])", rb"and(?![\w\x80-\xff])")
)
_WORD = re.compile(rb"[A-Za-z_]\w*")
_NON_ASCII_WORD = re.compile(rb"(?:[A-Za-z_]|[\x80-\xff])(?:\w|[\x80-\xff])*[\x80-\xff](?:\w|[\x80-\xff])*")
_KEYWORDS = (b"class", b"import")


def names_in(data: bytes) -> tuple[list[str], str]:
    """The names a file's bytes may subclass, import or alias, and their digest."""
    parts, lines = [], as_line_feeds(data)  # the patterns read lines by ``\n``
    for start in _starts(lines):  # only where a keyword stands: a pattern tried at every byte is slow
        match = _NAMES_THAT_SUBCLASS.match(lines, start)
        if match:
            parts += [part for part in match.groups() if part]
            if match.lastindex in (1, 2) and ended_early(match.group(match.lastindex)):
                parts.append(_bases(lines, match))
        generic = generic_arguments(lines, start)  # type parameters the pattern cannot bracket
        parts += [generic] if generic is not None else []
    parts += [found for pattern in _FOLLOWED for found in pattern.findall(lines)]
    joined = b"\0".join(parts)  # one search of them all: no name holds the byte 0
    words = {w.decode() for w in set(_WORD.findall(joined))}
    words.update(_non_ascii(data, _NON_ASCII_WORD.findall(joined) if not joined.isascii() else []))
    return sorted(words), hashlib.sha256(data).hexdigest()


def _bases(data: bytes, match: re.Match) -> bytes:
    """A class's whole argument list, its end found as Python's tokenizer finds it (strings,
    comments and nested brackets read past); where that is not sure (an f-string whose
    fields do not pair, or no end), the rest of the file: a superset, never a base missed."""
    opening = match.start(match.lastindex) - 1
    return data[opening : closing(data, opening)]  # no end: to the data's end


def _starts(data: bytes) -> list[int]:
    """Where each keyword stands: found by ``bytes.find``, many times faster than
    a pattern with alternatives tried at every byte."""
    starts = set()
    for keyword in _KEYWORDS:
        at = data.find(keyword)
        while at != -1:
            starts.add(at)
            at = data.find(keyword, at + len(keyword))
    return sorted(starts)


def _non_ascii(data: bytes, found: list[bytes]) -> set[str]:
    """Names with letters beyond ASCII, as Python reads them: decoded as the
    file declares, NFKC-normalised (``ﬁx`` names ``fix``)."""
    if not found:
        return set()
    encoding = declared_encoding(data)
    return {python_name(w.decode(encoding, "replace")) for w in found}
