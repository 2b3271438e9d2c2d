"""Writes through ``jax.tree.map``: ``jax.tree.map(lambda q, w: q.accum(w), acc, ct)``,
the form the tool itself writes, as a statement of the rule.

The accumulator (or a tuple or list display of them, or the whole ``*arg_accums``)
is the first tree: the function is called once for each of its leaves, with the leaf
as its first argument, so a function that calls ``.accum`` on its first parameter
exactly once on every path writes every accumulator once. The function is a lambda
whose body is that one call, or a ``def`` of the rule itself (its paths read as a
helper's are). Which call is ``jax.tree.map`` or ``jax.tree_util.tree_map`` is the
caller's to say (``is_tree_map``, from the name model), never the spelling's.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from .accum_uses import Unknown, Uses
from .nodes import findall
from .paths import Event, facts_of


def tree_writes(is_tree_map: Callable[[cst.BaseExpression], bool]):
    """``written(uses, node)``: the statement that writes the accumulator ``node`` names through
    ``jax.tree.map``, or None."""

    def written(uses: Uses, node: cst.CSTNode) -> cst.Expr | None:
        parent = uses.parents[node]
        if isinstance(parent, cst.Element) and parent.value is node:
            literal = uses.parents[parent]
            if not isinstance(literal, (cst.Tuple, cst.List)) or any(
                isinstance(e, cst.StarredElement) for e in literal.elements
            ):
                return None
            node, parent = literal, uses.parents[literal]
        if not isinstance(parent, cst.Arg) or parent.value is not node:
            return None
        call = uses.parents[parent]
        if not (isinstance(call, cst.Call) and len(call.args) >= 2 and call.args[1] is parent):
            return None
        if any(a.keyword is not None or a.star for a in call.args) or not is_tree_map(call.func):
            return None
        statement = uses.parents[call]
        if not isinstance(statement, cst.Expr) or not _writes_first_once(uses, call.args[0].value):
            return None
        return statement

    return written


def _writes_first_once(uses: Uses, func: cst.BaseExpression) -> bool:
    if isinstance(func, cst.Lambda):
        return _lambda_writes_first(func)
    if not isinstance(func, cst.Name) or uses.scopes.get(func) is not uses.scope:
        return False
    bound = list(uses.scope.assignments[func.value])
    local = bound[0].node if len(bound) == 1 else None
    if not isinstance(local, cst.FunctionDef) or local.decorators or local.asynchronous:
        return False
    params = [*local.params.posonly_params, *local.params.params]
    if not params or _inside(local, uses.func, uses.parents) is False:
        return False
    try:
        acc = Uses(local, uses.scopes, uses.parents).named(params[0].name.value)
    except Unknown:
        return False
    events = {w: [Event(0, 1, w)] for w in acc.writes}
    return not acc.handed and facts_of(local, events, 1).counts(0) == {1}


def _lambda_writes_first(func: cst.Lambda) -> bool:
    """``lambda q, ...: q.accum(value)``, ``q`` named nowhere else."""
    params = [*func.params.posonly_params, *func.params.params]
    body = func.body
    if not params or not isinstance(body, cst.Call) or len(body.args) != 1:
        return False
    first, arg = params[0].name.value, body.args[0]
    return (
        isinstance(body.func, cst.Attribute)
        and isinstance(body.func.value, cst.Name)
        and body.func.value.value == first
        and body.func.attr.value == "accum"
        and arg.keyword is None
        and not arg.star
        and not findall(arg, cst.Name, lambda n: n.value == first)
    )


def _inside(node: cst.CSTNode, func: cst.FunctionDef, parents) -> bool:
    """Is ``node`` a def of ``func``'s own body (nested in it)?"""
    while node in parents and node is not func:
        node = parents[node]
    return node is func
