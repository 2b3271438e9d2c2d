"""Walk only the nodes of a module that stand over the lines naming some words.

A search for calls of ``type`` or for bindings of an API name needs only the
nodes whose lines hold such a word: in a big module, a few paths down the
tree instead of every node. A node's children stand within its lines (a
definition's decorators above it, which count), but for an f-string's, which
older Pythons place loosely: an f-string is walked whole. A name ``ast``
reads may be written in other letters that NFKC makes it of, so a line
holding anything but ASCII counts too.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterable, Iterator

_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


_WORD_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _whole_words(code: str, words: Iterable[str]) -> list[int]:
    """Where each of ``words`` (names) stands as a whole word: not next to an ASCII letter,
    digit or ``_``. Each word is found by ``str.find`` (a pattern of alternatives, starting
    with a look behind, tried every character: a tenth of a big module's parse)."""
    found = []
    for word in set(words):
        at = code.find(word)
        while at != -1:
            end = at + len(word)
            if (at == 0 or code[at - 1] not in _WORD_CHARS) and (end == len(code) or code[end] not in _WORD_CHARS):
                found.append(at)
            at = code.find(word, at + 1)
    return sorted(found)


def word_lines(code: str, words: Iterable[str]) -> list[int] | None:
    """The lines (from 1, ascending) that name one of ``words`` as a whole word, or hold
    other than ASCII; None where ``ast`` may count lines otherwise (a lone CR ends one)."""
    if "\r" in code:
        return None
    starts = _whole_words(code, words)
    if not code.isascii():
        starts = sorted([*starts, *(match.start() for match in _NOT_ASCII.finditer(code))])
    found, line, at = [], 1, 0
    for start in starts:
        line, at = line + code.count("\n", at, start), start
        if not found or found[-1] != line:
            found.append(line)
    return found


def over_lines(tree: ast.AST, lines: list[int] | None) -> Iterator[ast.AST]:
    """The nodes of ``tree`` whose lines hold one of ``lines`` (None: every node)."""
    if lines is None:
        yield from ast.walk(tree)
        return
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.JoinedStr):
            yield from ast.walk(node)
            continue
        yield node
        stack += [child for child in ast.iter_child_nodes(node) if spans(child, lines)]


def spans(node: ast.AST, lines: list[int]) -> bool:
    """Does ``node`` (its decorators with it) stand over one of ``lines``?"""
    start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    if start is None or end is None:
        return True  # no place of its own (arguments, a comprehension): its children say
    start = min([start, *(decorator.lineno for decorator in getattr(node, "decorator_list", ()))])
    at = bisect.bisect_left(lines, start)
    return at < len(lines) and lines[at] <= end


_KEYWORD = re.compile(r"(async\s+)?(def|class)\s+")
_BOUNDARY = re.compile(r"\b")


def names_on_its_line(line: str, stmt: ast.stmt) -> bool:
    """``def name``/``class name`` from the statement's column (in bytes).
    Fixed patterns: one pattern per name would outgrow ``re``'s cache."""
    rest = line.encode()[stmt.col_offset :].decode(errors="replace")
    keyword = _KEYWORD.match(rest)
    end = keyword.end() + len(stmt.name) if keyword else 0
    return keyword is not None and rest.startswith(stmt.name, keyword.end()) and _BOUNDARY.match(rest, end) is not None
