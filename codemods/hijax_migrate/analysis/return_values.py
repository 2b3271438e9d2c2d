"""The values returns give, as libcst writes them: what a rewrite of a return reads
and builds (its items, their comments, the tuple a list becomes).

Which returns a rule has and what each returns are ``returns``' facts, read from
``ast`` (whether a value is a tuple, or a list, in any spelling); a builder here
follows ``ast``'s same expression, found by its place in the return the bridge maps.
"""

from __future__ import annotations

import ast

import libcst as cst

from .bridge import Bridge
from .returns import listed, own_returns


def returns_in(bridge: Bridge, func: cst.FunctionDef) -> list[cst.Return]:
    """``func``'s own returns (``returns.own_returns`` of ``ast``'s statement), as libcst's nodes."""
    return [bridge.cst_of(ret) for ret in own_returns(bridge.ast_of(func))]


def is_none(expr: cst.BaseExpression | None) -> bool:
    """An item written ``None`` (or none at all): no cotangent."""
    return expr is None or (isinstance(expr, cst.Name) and expr.value == "None")


def tuple_items(node: cst.Return) -> list[cst.BaseExpression]:
    assert isinstance(node.value, (cst.Tuple, cst.List))
    return [element.value for element in node.value.elements]


def as_tuple(value: cst.BaseExpression, shown: ast.expr, func: ast.FunctionDef) -> cst.BaseExpression | None:
    """The tuple a rule's list result stands for (jax checks a rule's result against a
    tuple: a list fails), or None where ``value`` is not visibly a list: ``returns.listed``
    of ``shown``, ``ast``'s same expression (of ``func``, ``ast``'s rule)."""
    if not listed(shown, func):
        return None
    if isinstance(value, cst.List):
        elements = list(value.elements)
        if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
            elements[0] = elements[0].with_changes(comma=cst.Comma())
        return cst.Tuple(
            elements,
            lpar=[cst.LeftParen(whitespace_after=value.lbracket.whitespace_after)],
            rpar=[cst.RightParen(whitespace_before=value.rbracket.whitespace_before)],
        )
    if isinstance(value, cst.ListComp):
        return _tuple_of(cst.GeneratorExp(value.elt, value.for_in, lpar=[], rpar=[]))
    if isinstance(value, cst.IfExp):
        body, orelse = as_tuple(value.body, shown.body, func), as_tuple(value.orelse, shown.orelse, func)
        return value.with_changes(body=body or value.body, orelse=orelse or value.orelse)
    return _tuple_of(value)  # a name every binding gives a list


def tuple_returns(bridge: Bridge, func: cst.FunctionDef, returns: list[cst.Return]) -> dict[cst.Return, cst.Return]:
    """Each of the rule's own returns (``returns``) of a visible list, and the same return of a tuple."""
    found, rule = {}, bridge.ast_of(func)
    for ret in returns:
        value = as_tuple(ret.value, bridge.ast_of(ret).value, rule) if ret.value is not None else None
        if value is not None:
            found[ret] = ret.with_changes(value=value)
    return found


def _tuple_of(value: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name("tuple"), [cst.Arg(value)])


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
    opening, closing = (
        (value.lbracket, value.rbracket)
        if isinstance(value, cst.List)
        else (value.lpar[0] if value.lpar else None, value.rpar[0] if value.rpar else None)
    )
    if opening is not None and count:
        first, own = _comments(opening.whitespace_after)
        leading[0] += ([first] if first else []) + own
    for index, element in enumerate(value.elements):
        spaces = [element.comma.whitespace_after] if isinstance(element.comma, cst.Comma) else []
        if index == count - 1 and closing is not None:
            spaces.append(closing.whitespace_before)
        for ws in spaces:
            first, own = _comments(ws)
            trailing[index] = trailing[index] or first
            leading[index + 1] += own
    return leading[:count], trailing, leading[count]
