"""Where a bracket of Python source closes, read from bytes as Python's tokenizer reads
them: strings, comments and nested brackets read past. For the patterns that read a class
statement's bases from bytes (``analysis.naming``, ``tree.class_links``), which stop at the
first closing bracket: where that may be early, this finds the real end, or says it is
not sure.
"""

from __future__ import annotations

import re

_OPENING, _CLOSING = frozenset(b"([{"), frozenset(b")]}")
# A name (a string's prefix, perhaps), a quote, a comment, an escaped byte, a run of other
# bytes, or one byte (a bracket)
_LEXEME = re.compile(rb"[\w\x80-\xff]+|'''|\"\"\"|['\"]|#[^\n]*|\\[\s\S]|[^\w\x80-\xff'\"#\\()\[\]{}\n]+|[\s\S]")
_STRING_ENDS = {
    b"'''": re.compile(rb"(?:[^\\]|\\[\s\S])*?'''"),
    b'"""': re.compile(rb'(?:[^\\]|\\[\s\S])*?"""'),
    b"'": re.compile(rb"(?:[^'\\\n]|\\[\s\S])*'"),
    b'"': re.compile(rb'(?:[^"\\\n]|\\[\s\S])*"'),
}
_FIELD = re.compile(rb"\{\{|\}\}|[{}]")


def ended_early(inside: bytes) -> bool:
    """May a pattern that took ``inside`` up to the first closing bracket it met (a class's
    bases) have ended early: at a bracket in a string or a comment (``f("):")``, ``# see
    f(): ...``), or one closing a nested call? Then ``closing`` says where it ends."""
    if b"#" in inside or b"'" in inside or b'"' in inside:
        return True
    depth = 0
    for byte in inside:
        depth += (byte in _OPENING) - (byte in _CLOSING)
        if depth < 0:
            return True
    return depth != 0


def closing(data: bytes, opening: int) -> int | None:
    """The offset just past the bracket closing the one at ``opening``; None: not sure."""
    depth, before, at = 0, b"", opening
    while at < len(data):
        lexeme = _LEXEME.match(data, at)
        token, at = lexeme.group(), lexeme.end()
        if token in _STRING_ENDS:
            at = _past_string(data, at, token, before)
            if at is None:
                return None
        elif token[0] in _OPENING:
            depth += 1
        elif token[0] in _CLOSING:
            depth -= 1
            if depth == 0:
                return at
        before = token  # a string's prefix, where the next token is its quote
    return None


def _past_string(data: bytes, at: int, quote: bytes, prefix: bytes) -> int | None:
    """Past the string whose ``quote`` ends at ``at``; None: not sure. An f-string is read as
    any other, then its braces must pair: Python 3.12 lets a replacement field hold the
    string's own quote, which this reading would take for its end, inside an open field."""
    found = _STRING_ENDS[quote].match(data, at)
    if found is None:
        return None
    if b"f" in prefix.lower() and not _fields_pair(data[at : found.end()]):
        return None
    return found.end()


def _fields_pair(body: bytes) -> bool:
    depth = 0
    for brace in _FIELD.findall(body):
        if len(brace) == 2:
            continue  # ``{{`` and ``}}`` stand for one brace each
        depth += 1 if brace == b"{" else -1
        if depth < 0:
            return False
    return depth == 0


_GENERIC = re.compile(rb"class(?:[ \t\f]|\\\n)+[\w\x80-\xff]+(?:[ \t\f]|\\\n)*\[")
_ARGUMENTS = re.compile(rb"(?:[ \t\f]|\\\n)*\(")


def generic_arguments(data: bytes, at: int) -> bytes | None:
    """The argument list of a generic class statement at ``at`` (``class A[T](Base):``, its
    type parameters on several lines too), read past the type parameters' brackets; None:
    no type parameters there, or no argument list; where not sure, the rest of the data."""
    head = _GENERIC.match(data, at)
    if head is None:
        return None
    end = closing(data, head.end() - 1)
    if end is None:
        return data[head.end() :]
    found = _ARGUMENTS.match(data, end)
    if found is None:
        return None
    opening = found.end() - 1
    return data[opening : closing(data, opening)]  # no end: to the data's end
