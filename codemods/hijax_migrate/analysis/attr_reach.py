"""The top-level statements of a module that may hold ``.name`` for given names.

A rule that renames a method edits its calls wherever they stand; visiting
every node of a big module for them costs more than the rest of the rule.
The text says where a ``.name`` may stand (a superset: comments and strings
count), and ``ast``'s line spans say which statement holds that line.
"""

from __future__ import annotations

import ast
import bisect
import re

import libcst as cst

from ..tree.calls import attribute_pattern


def holding(module: cst.Module, code: str, spans: list[list[int]] | None, names: set[str]) -> list[cst.CSTNode] | None:
    """The statements of ``module.body`` that may hold ``.name``, from their
    ``spans``; None where that cannot be told (then every statement may)."""
    return _holding(module, code, spans, attribute_pattern(names))


def naming(module: cst.Module, code: str, spans: list[list[int]] | None, word: str) -> list[cst.CSTNode] | None:
    """The statements of ``module.body`` whose text names ``word`` (a name, ``.word``, an
    import of it), as ``holding``."""
    return _holding(module, code, spans, re.compile(rf"\b{re.escape(word)}\b"))


def _holding(module: cst.Module, code: str, spans: list[list[int]] | None, pattern) -> list[cst.CSTNode] | None:
    if "\r" in code or spans is None:  # ast and libcst might count lines differently
        return None
    offsets = [found.start() for found in pattern.finditer(code)]
    if len(spans) != len(module.body):
        return None  # not the same statements (a line continued before a `;`): visit all
    starts = [first for first, _ in spans]
    found, line, done = set(), 1, 0
    for offset in offsets:  # in order: lines counted once over the text
        line, done = line + code.count("\n", done, offset), offset
        i = bisect.bisect_right(starts, line) - 1
        if i >= 0 and line <= spans[i][1]:
            found.add(i)
    return [module.body[i] for i in sorted(found)]


def spans(body: list[ast.stmt]) -> list[list[int]]:
    """First and last line of each statement as libcst counts statements:
    simple statements on one line (``a = 1; b = 2``) are one, and a
    decorated definition starts at its first decorator."""
    spans: list[list[int]] = []
    for stmt in body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        if spans and stmt.lineno == spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], stmt.end_lineno)
        else:
            spans.append([first, stmt.end_lineno])
    return spans
