"""Where a bracket of Python source closes, read from bytes as Python's tokenizer reads
them: strings (any prefix but an f-string's), comments and nested brackets read past. For
the patterns that read a class statement's bases from bytes (``analysis.naming``,
``tree.class_links``), which stop at the first closing bracket: where that may be early,
this finds the real end, or says it is not sure.
"""

from __future__ import annotations

import re


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


_OPENING, _CLOSING = frozenset(b"([{"), frozenset(b")]}")
# A name (a string's prefix, perhaps), a quote, a comment, an escaped byte, or any other byte
_LEXEME = re.compile(rb"[\w\x80-\xff]+|'''|\"\"\"|['\"]|#[^\n]*|\\[\s\S]|[\s\S]")
_STRING_ENDS = {
    b"'''": re.compile(rb"(?:[^\\]|\\[\s\S])*?'''"),
    b'"""': re.compile(rb'(?:[^\\]|\\[\s\S])*?"""'),
    b"'": re.compile(rb"(?:[^'\\\n]|\\[\s\S])*'"),
    b'"': re.compile(rb'(?:[^"\\\n]|\\[\s\S])*"'),
}


def closing(data: bytes, opening: int) -> int | None:
    """The offset just past the bracket closing the one at ``opening``, read as Python's
    tokenizer reads it (strings, comments and nested brackets read past); None: not sure."""
    depth, at, before = 0, opening, b""
    while at < len(data):
        lexeme = _LEXEME.match(data, at)
        token, at = lexeme.group(), lexeme.end()
        if token in _STRING_ENDS:
            if b"f" in before.lower():
                return None  # Python 3.12's f-strings may hold their own quotes
            found = _STRING_ENDS[token].match(data, at)
            if found is None:
                return None
            at = found.end()
        elif token[0] in _OPENING:
            depth += 1
        elif token[0] in _CLOSING:
            depth -= 1
            if depth == 0:
                return at
        before = token
    return None
