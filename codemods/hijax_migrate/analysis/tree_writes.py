"""Writes through ``jax.tree.map``: ``jax.tree.map(lambda q, w: q.accum(w), acc, ct)``,
the form the tool itself writes, as a statement of the rule.

The accumulator (or a tuple or list display of them, or the whole ``*arg_accums``)
is the first tree: the function is called once for each of its leaves, with the leaf
as its first argument, so a function that calls ``.accum`` on its first parameter
exactly once on every path writes every accumulator once. The function is a lambda
whose body is that one call, or a ``def`` of the rule itself (its paths read as a
helper's are). Which call is ``jax.tree.map`` or ``jax.tree_util.tree_map`` is the
caller's to say (``is_tree_map``, from the name model), never the spelling's.

A loop of the rule itself, ``for acc, ct in zip((x_acc, y_acc), (dx, dy)): acc.accum(ct)``,
writes each accumulator of the display once where ``zip`` (Python's own, ``builtin``)
cannot stop short (every other argument as long, as ``paths.known_count`` reads it)
and each pass writes the loop's name once, leaving the loop no other way.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from .accum_uses import Unknown, Uses
from .bridge import Bridge
from .cst_paths import facts_on
from .helpers import once_per_iteration
from .nodes import findall
from .paths import Event, known_count


def tree_writes(bridge: Bridge, is_tree_map: Callable[[cst.BaseExpression], bool], builtin=None):
    """``written(uses, node)``: the statement that writes the accumulator ``node`` names through
    ``jax.tree.map``, or the loop over ``zip`` that does, or None (``bridge``: the tree's
    statements with ``ast``'s, whose paths are walked)."""

    def written(uses: Uses, node: cst.CSTNode) -> cst.Expr | cst.For | None:
        loop = _zip_loop(uses, node, builtin or (lambda name: False), bridge)
        if loop is not None:
            return loop
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
        if not isinstance(statement, cst.Expr) or not _writes_first_once(uses, call.args[0].value, bridge):
            return None
        return statement

    return written


def _writes_first_once(uses: Uses, func: cst.BaseExpression, bridge: Bridge) -> bool:
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
    return not acc.handed and facts_on(bridge, local, events, 1).counts(0) == {1}


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


def _inside(node: cst.CSTNode, func: cst.CSTNode, parents) -> bool:
    """Is ``node`` within ``func`` (a def of its own body, a statement of a loop's)?"""
    while node in parents and node is not func:
        node = parents[node]
    return node is func


def _zip_loop(uses: Uses, node: cst.CSTNode, builtin, bridge: Bridge) -> cst.For | None:
    """The ``for`` of the rule whose ``zip(...)`` takes a display holding ``node``, where each
    accumulator of the display is written once."""
    element = uses.parents[node]
    literal = uses.parents[element] if isinstance(element, cst.Element) and element.value is node else None
    if not isinstance(literal, (cst.Tuple, cst.List)):
        return None
    arg = uses.parents[literal]
    call = uses.parents[arg] if isinstance(arg, cst.Arg) and arg.value is literal else None
    loop = uses.parents[call] if isinstance(call, cst.Call) else None
    if not (isinstance(loop, cst.For) and loop.iter is call and not loop.asynchronous and not loop.orelse):
        return None
    if not (isinstance(call.func, cst.Name) and call.func.value == "zip" and builtin("zip")):
        return None
    if (
        known_count(bridge.ast_of(loop).iter, builtin) != len(literal.elements)
        or uses.scopes.get(call) is not uses.scope
    ):
        return None  # zip stops before the last accumulator (the display's own count unknown too), or cannot be read
    target = loop.target
    position = call.args.index(arg)
    if not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != len(call.args):
        return None
    name = target.elements[position].value
    if not isinstance(name, cst.Name):
        return None
    try:
        var = uses.named(name.value)
    except Unknown:
        return None
    inside = all(_inside(w, loop.body, uses.parents) for w in var.writes)
    return loop if inside and not var.handed and once_per_iteration(bridge, loop, var) else None
