"""The return statements of a rule and what they return."""

from __future__ import annotations

import enum

import libcst as cst

from .deflines import blocks_in


class Returned(enum.Enum):
    NOTHING = "None"  # bare return, return None
    LOGS = "dict"  # a dict of backward-pass log entries
    TUPLE = "tuple"  # a tuple literal: one cotangent per input
    OPAQUE = "opaque"  # a name, call or expression whose length is not visible


def own_returns(func: cst.FunctionDef) -> list[cst.Return]:
    """The returns of the function itself, not of functions or classes nested
    in it, in source order. A return is a statement: only statements are
    walked (a visit of every node cost more than the rest of a big module's
    analysis)."""
    found, stack = [], [func.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            found.extend(small for small in node.body if isinstance(small, cst.Return))
        elif not isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            stack.extend(reversed(blocks_in(node, lines=True)))
    return found


def is_none(expr: cst.BaseExpression | None) -> bool:
    return expr is None or (isinstance(expr, cst.Name) and expr.value == "None")


def classify(node: cst.Return) -> Returned:
    value = node.value
    if is_none(value):
        return Returned.NOTHING
    if isinstance(value, (cst.Dict, cst.DictComp)) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict"
    ):
        return Returned.LOGS
    if isinstance(value, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in value.elements):
        return Returned.TUPLE
    return Returned.OPAQUE


def tuple_items(node: cst.Return) -> list[cst.BaseExpression]:
    assert isinstance(node.value, cst.Tuple)
    return [element.value for element in node.value.elements]


def _comments(ws) -> tuple[str | None, list[str]]:
    """(comment ending the line, comments on lines of their own) of whitespace."""
    if not isinstance(ws, cst.ParenthesizedWhitespace):
        return None, []
    own = [line.comment.value for line in ws.empty_lines if line.comment]
    return (ws.first_line.comment.value if ws.first_line.comment else None), own


def item_comments(node: cst.Return) -> tuple[list[list[str]], list[str | None], list[str]]:
    """Comments written inside a returned tuple literal, so that its writes
    keep them: for each element, the comments on lines of their own before it
    and the comment ending its line; then those after the last element."""
    value = node.value
    count = len(value.elements)
    leading: list[list[str]] = [[] for _ in range(count + 1)]  # the extra one: after the last
    trailing: list[str | None] = [None] * count
    if value.lpar and count:
        first, own = _comments(value.lpar[0].whitespace_after)
        leading[0] += ([first] if first else []) + own
    for index, element in enumerate(value.elements):
        spaces = [element.comma.whitespace_after] if isinstance(element.comma, cst.Comma) else []
        if index == count - 1 and value.rpar:
            spaces.append(value.rpar[0].whitespace_before)
        for ws in spaces:
            first, own = _comments(ws)
            trailing[index] = trailing[index] or first
            leading[index + 1] += own
    return leading[:count], trailing, leading[count]


def returns_values(returns: list[cst.Return]) -> bool:
    """Does any return hand back cotangents rather than None or logs?"""
    return any(classify(r) in (Returned.TUPLE, Returned.OPAQUE) for r in returns)
