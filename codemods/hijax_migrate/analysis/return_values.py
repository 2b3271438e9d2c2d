"""The values returns give, as libcst writes them: what a rewrite of a return reads
and builds (its items, their comments, the tuple a list becomes).

Which returns a rule has and what each returns are ``returns``' facts, read from
``ast``; the expressions inside a return are still read here, on libcst's nodes
(``visibly_tuple``, ``is_none`` of an item), until the bridge maps expressions too.
"""

from __future__ import annotations

import libcst as cst

from .bridge import Bridge
from .nodes import findall
from .returns import own_returns


def returns_in(bridge: Bridge, func: cst.FunctionDef) -> list[cst.Return]:
    """``func``'s own returns (``returns.own_returns`` of ``ast``'s statement), as libcst's nodes."""
    return [bridge.cst_of(ret) for ret in own_returns(bridge.ast_of(func))]


def is_none(expr: cst.BaseExpression | None) -> bool:
    """An item written ``None`` (or none at all): no cotangent."""
    return expr is None or (isinstance(expr, cst.Name) and expr.value == "None")


def tuple_items(node: cst.Return) -> list[cst.BaseExpression]:
    assert isinstance(node.value, (cst.Tuple, cst.List))
    return [element.value for element in node.value.elements]


def as_tuple(value: cst.BaseExpression, func: cst.FunctionDef) -> cst.BaseExpression | None:
    """The tuple a rule's list result stands for (jax checks a rule's result against a
    tuple: a list fails), or None where ``value`` is not visibly a list."""
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
        body, orelse = as_tuple(value.body, func), as_tuple(value.orelse, func)
        return value.with_changes(body=body or value.body, orelse=orelse or value.orelse) if body or orelse else None
    if isinstance(value, cst.Name) and _always_a_list(value.value, func):
        return _tuple_of(value)
    return None


def visibly_tuple(value: cst.BaseExpression | None, func: cst.FunctionDef, builtin, depth: int = 0) -> bool:
    """Is ``value`` a tuple, whatever the spelling: a display (starred items too), ``tuple(...)``
    (``builtin("tuple")``: the name is Python's own), both arms of ``a if c else b``, a
    sum of tuples, a tuple times an integer, or a name every binding in the rule gives a tuple?
    Cotangents then, never backward-pass logs (a dict)."""
    if value is None or depth > 8:
        return False
    if isinstance(value, cst.Tuple):
        return True
    if isinstance(value, cst.IfExp):
        return all(visibly_tuple(v, func, builtin, depth + 1) for v in (value.body, value.orelse))
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return all(visibly_tuple(v, func, builtin, depth + 1) for v in (value.left, value.right))
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        pair = (value.left, value.right)
        return any(
            visibly_tuple(a, func, builtin, depth + 1) and isinstance(b, cst.Integer) for a, b in (pair, pair[::-1])
        )
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "tuple":
        return builtin("tuple") and not _bound_in(func, "tuple")
    if isinstance(value, cst.Name) and not _is_param(func, value.value):
        binders = findall(func.body, _BINDERS, lambda node: value.value in _bound_by(node))
        return bool(binders) and all(_binds_tuple(node, value.value, func, builtin, depth) for node in binders)
    return False


def _binds_tuple(node, name: str, func, builtin, depth: int) -> bool:
    """``name = <tuple>`` (its only target) or ``name += <tuple>``."""
    if isinstance(node, cst.Assign):
        return (
            len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and visibly_tuple(node.value, func, builtin, depth + 1)
        )
    if isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign):
        return visibly_tuple(node.value, func, builtin, depth + 1)
    return False


def _is_param(func: cst.FunctionDef, name: str) -> bool:
    params = func.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    every += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    return name in {p.name.value for p in every}


def _bound_in(func: cst.FunctionDef, name: str) -> bool:
    return _is_param(func, name) or bool(findall(func.body, _BINDERS, lambda node: name in _bound_by(node)))


def tuple_returns(func: cst.FunctionDef, returns: list[cst.Return]) -> dict[cst.Return, cst.Return]:
    """Each of the rule's own returns (``returns``) of a visible list, and the same return of a tuple."""
    found = {}
    for ret in returns:
        value = as_tuple(ret.value, func) if ret.value is not None else None
        if value is not None:
            found[ret] = ret.with_changes(value=value)
    return found


def _tuple_of(value: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name("tuple"), [cst.Arg(value)])


def _always_a_list(name: str, func: cst.FunctionDef) -> bool:
    """Is every binding of ``name`` in the rule (nested functions counted too) an
    assignment of a list (a display, a comprehension, ``[x] * n``, ``list(...)``),
    and it no parameter? Its items may be set, and lists added to it."""
    params = func.params
    if name in {p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]}:
        return False
    binders = findall(func.body, _BINDERS, lambda node: name in _bound_by(node))
    return bool(binders) and all(
        isinstance(node, (cst.Assign, cst.AugAssign)) and _is_list(node.value) for node in binders
    )


# Every statement or expression that can bind a name.
_BINDERS = (
    cst.Assign,
    cst.AugAssign,
    cst.AnnAssign,
    cst.For,
    cst.CompFor,
    cst.WithItem,
    cst.NamedExpr,
    cst.ExceptHandler,
    cst.ImportAlias,
    cst.FunctionDef,
    cst.ClassDef,
    cst.Global,
    cst.Nonlocal,
    cst.Del,
)


def _bound_by(node) -> set[str]:
    if isinstance(node, cst.Assign):
        return {n for t in node.targets for n in _target_names(t.target)}
    if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.Del)):
        return _target_names(node.target)
    if isinstance(node, cst.WithItem):
        return _target_names(node.asname.name) if node.asname else set()
    if isinstance(node, cst.ExceptHandler):
        return _target_names(node.name.name) if node.name else set()
    if isinstance(node, cst.ImportAlias):
        return (
            {(node.asname.name if node.asname else node.name).value}
            if isinstance(node.asname.name if node.asname else node.name, cst.Name)
            else {"*"}
        )
    if isinstance(node, (cst.Global, cst.Nonlocal)):
        return {item.name.value for item in node.names}
    return {node.name.value}


def _target_names(target) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {n for e in target.elements for n in _target_names(e.value)}
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return set()


def _is_list(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, (cst.List, cst.ListComp)):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return _is_list(value.left) or _is_list(value.right)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "list"


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
