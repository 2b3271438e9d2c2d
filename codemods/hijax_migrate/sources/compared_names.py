"""May jax's version be compared exactly here? A byte test, read around one occurrence.

The pre-filter's ``compared NAME`` words (HJX014's: ``__version__``, ``__version_info__``,
``_version``, and ``version`` for ``importlib.metadata.version("jax")``): a file is read for
the rule only where some occurrence of the name may be an operand of an exact comparison, so
that the many modules that only read a version (``jaxlib.version.__version__`` in a message,
``xla_client._version >= 389``) cost no parse.

HJX014 reports a ``comparison`` (the language reference's) whose operators include ``==``,
``!=``, ``is`` or ``is not``, one of whose operands libcst names jax's version: a name or an
attribute chain ending in ``NAME``, a call or subscription of one (``get_full_name_for_node``),
a name an import binds to one (``as``), or ``importlib.metadata.version("jax")``. The
occurrence may be such an operand (a superset):

- after it: blanks, line breaks, comments and closing brackets, then ``==``, ``!=``, ``<>``
  (``barry_as_FLUFL``) or ``is``; or an opening bracket (a call or subscription, which the
  operator may follow); or ``as`` and another name (an alias, compared anywhere);
- before it: a dotted prefix (``jax . version .``: blanks, line breaks between), opening
  brackets, then one of those operators or ``not`` (``is not``); a line break looks at the
  code of the line before, blank and comment lines passed over (unsure where a quote may
  hide the ``#``: compared), and a bracket closing a primary of the prefix
  (``f().__version__``) is unsure too;
- ``version`` (``importlib.metadata``'s, by any dotted name) only where it is called with
  the string ``"jax"`` or ``'jax'`` as its first argument (by keyword, parenthesised too),
  or aliased in a file that holds that string.

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
_VERSION = b"version"
_KEYWORD = re.compile(rb"[\w\x80-\xff]+(?:[ \t\f]|\\\r?\n|\r|\n)*=(?!=)")
_LINES_BACK = 200  # blank and comment lines looked past before the answer is "unsure"


def compared_at(data: bytes, at: int, end: int) -> bool:
    """May the whole name at ``data[at:end]`` be an operand of an exact comparison?"""
    following = _skipped(data, end)  # what stands after the name, read once for each question
    if data[at:end] == _VERSION:  # ``importlib.metadata.version``: jax's only where called with "jax"
        return _calls_jax(data, following) or (_aliased(data, at, end, following) and any(jax in data for jax in _JAX))
    return _aliased(data, at, end, following) or _EXACT.match(data, following) is not None or _before(data, at)


def _aliased(data: bytes, at: int, end: int, following: int) -> bool:
    """``import ... __version__ as V``: V may be compared anywhere (``as __version__``
    binds the name itself, whose own occurrences are read); ``following``: past the name."""
    if not _AS.match(data, following):
        return False
    return _NAME.match(data, _skipped(data, following + 2)).group() != data[at:end]


def _calls_jax(data: bytes, following: int) -> bool:
    """``version("jax")``: a call whose first argument is the string (by keyword too,
    parenthesised too), across blanks, line breaks and comments; ``following``: past the name."""
    if data[following : following + 1] != b"(":
        return False
    at = _opened(data, following + 1)
    keyword = _KEYWORD.match(data, at)
    if keyword is not None:
        at = _opened(data, keyword.end())
    return data[at : at + 5] in _JAX


def _opened(data: bytes, at: int) -> int:
    """Past blanks, line breaks, comments and opening brackets."""
    while True:
        at = _skipped(data, at, closing=False)
        if data[at : at + 1] != b"(":
            return at
        at += 1


def _skipped(data: bytes, at: int, closing: bool = True) -> int:
    """Past blanks, line breaks, continuations, comments and (``closing``) closing brackets."""
    while at < len(data):
        byte = data[at]
        if byte == 35:  # '#': a comment, to its line's end
            breaks = [found for found in (data.find(b"\n", at), data.find(b"\r", at)) if found != -1]
            at = min(breaks) if breaks else len(data)
        elif byte in b" \t\f\r\n\\" or (closing and byte in _CLOSING):
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
    None where a quote on it may make that ``#`` a string's (one opened before it, or
    lines above and closed after it: ``abc # ''' == \\``)."""
    start = max(data.rfind(b"\n", 0, newline), data.rfind(b"\r", 0, newline)) + 1
    line = data[start:newline]
    hash_at = line.find(b"#")
    if hash_at == -1:
        return newline
    if any(quote in line for quote in (b"'", b'"')):
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
