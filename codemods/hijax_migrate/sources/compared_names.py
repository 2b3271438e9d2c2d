"""May jax's version be compared exactly here? A byte test, read around one occurrence.

The pre-filter's ``compared NAME`` words (HJX014's: ``__version__``, ``__version_info__``,
``_version``): a file is read for the rule only where some occurrence of the name may be an
operand of an exact comparison, so that the many modules that only read a version
(``jaxlib.version.__version__`` in a message, ``xla_client._version >= 389``) cost no parse.

HJX014 reports a ``comparison`` (the language reference's) whose operators include ``==``,
``!=``, ``is`` or ``is not``, one of whose operands libcst names jax's version: a name or an
attribute chain ending in ``NAME``, a call or subscription of one (``get_full_name_for_node``),
a name an import binds to one (``as``), or ``importlib.metadata.version("jax")``. The
occurrence may be such an operand (a superset):

- after it: blanks, line breaks, comments and closing brackets, then ``==``, ``!=``, ``<>``
  (``barry_as_FLUFL``) or ``is``; or an opening bracket (a call or subscription, which the
  operator may follow); or ``as`` and another name (an alias);
- before it: a dotted prefix (``jax . version .``: blanks, line breaks between), opening
  brackets, then one of those operators or ``not`` (``is not``); a line break looks at the
  code of the line before, blank and comment lines passed over (unsure where a quote may
  hide the ``#``: compared), and a bracket closing a primary of the prefix
  (``f().__version__``) is unsure too;
- anywhere in the file, the string ``"jax"`` or ``'jax'``: ``version("jax")`` compared,
  through a name the file may bind in any way.

What it passes over is a read of the name that no comparison's operator stands next to:
``x = jax.__version__``, ``f(np.__version__)``, ``jax.__version__.split(".")``, ``v >= 389``.
"""

from __future__ import annotations

import re

_EXACT = re.compile(rb"==|!=|<>|is(?![\w\x80-\xff])|[(\[]")  # a bracket: a call or subscription
_AS = re.compile(rb"as(?![\w\x80-\xff])")
_NAME = re.compile(rb"[\w\x80-\xff]*")
_BEFORE = (b"==", b"!=", b"<>")
_WORDS_BEFORE = (b"is", b"not")
_BLANKS = b" \t\f"
_CLOSING = b")]}"
_JAX = (b'"jax"', b"'jax'")
_LINES_BACK = 200  # blank and comment lines looked past before the answer is "unsure"


def compared_at(data: bytes, at: int, end: int) -> bool:
    """May the whole name at ``data[at:end]`` be an operand of an exact comparison?"""
    if any(literal in data for literal in _JAX):
        return True
    return _after(data, at, end) or _before(data, at)


def _after(data: bytes, at: int, end: int) -> bool:
    next_at = _skipped(data, end)
    if _AS.match(data, next_at):  # ``import ... __version__ as V``: V compared, anywhere
        alias = _NAME.match(data, _skipped(data, next_at + 2)).group()
        return alias != data[at:end]  # ``__version__ as __version__`` binds the name itself
    return _EXACT.match(data, next_at) is not None


def _skipped(data: bytes, at: int) -> int:
    """Past blanks, line breaks, continuations, comments and closing brackets."""
    while at < len(data):
        byte = data[at]
        if byte == 35:  # '#': a comment, to its line's end
            breaks = [found for found in (data.find(b"\n", at), data.find(b"\r", at)) if found != -1]
            at = min(breaks) if breaks else len(data)
        elif byte in b" \t\f\r\n\\" or byte in _CLOSING:
            at += 1
        else:
            break
    return at


def _before(data: bytes, at: int) -> bool:
    """Does an exact operator stand before the operand ending with the name at ``at``?"""
    after_dot = False
    while True:
        at = _back(data, at)
        if at is None:
            return True  # unsure
        if at == 0:
            return False
        byte = data[at - 1]
        if after_dot:  # an attribute's owner: a name, or a primary the bytes cannot read
            if not _is_name_byte(byte):
                return byte in b")]"
            while at and _is_name_byte(data[at - 1]):
                at -= 1
            after_dot = False
        elif byte == 46:  # '.'
            at, after_dot = at - 1, True
        elif byte == 40:  # '(': the operand's own bracket
            at -= 1
        else:
            return _operator_ends(data, at)


def _back(data: bytes, at: int) -> int | None:
    """Back past blanks, continuations and line breaks (to the code of the line before);
    None where the line before may end in a comment that hides its code."""
    lines = 0
    while at:
        byte = data[at - 1]
        if byte in _BLANKS or byte == 92:  # a backslash: a line continued
            at -= 1
        elif byte in b"\r\n":
            lines += 1
            if lines > _LINES_BACK:
                return None
            at = _code_end(data, at - 1)
            if at is None:
                return None
        else:
            break
    return at


def _code_end(data: bytes, newline: int) -> int | None:
    """Where the code of the line ending at ``newline`` ends (its comment set aside);
    None where a quote before its ``#`` may make that ``#`` a string's."""
    start = max(data.rfind(b"\n", 0, newline), data.rfind(b"\r", 0, newline)) + 1
    line = data[start:newline]
    hash_at = line.find(b"#")
    if hash_at == -1:
        return newline
    if any(quote in line[:hash_at] for quote in (b"'", b'"')):
        return None
    return start + hash_at


def _operator_ends(data: bytes, at: int) -> bool:
    if data[max(0, at - 2) : at] in _BEFORE:
        return True
    start = at
    while start and _is_name_byte(data[start - 1]):
        start -= 1
    return data[start:at] in _WORDS_BEFORE


def _is_name_byte(byte: int) -> bool:
    return byte >= 128 or byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122
