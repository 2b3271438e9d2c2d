"""Writes through ``jax.tree.map``: ``jax.tree.map(lambda q, w: q.accum(w), acc, ct)``,
the form the tool itself writes, as a statement of the rule (read from ``ast``).

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

import ast
from collections.abc import Callable

from .accum_uses import Unknown, Uses, arg_of
from .helpers import once_per_iteration, within
from .paths import Event, facts_of, known_count


def tree_writes(is_tree_map: Callable[[ast.expr], bool], builtin=None):
    """``written(uses, node)``: the statement that writes the accumulator ``node`` names through
    ``jax.tree.map``, or the loop over ``zip`` that does, or None."""

    def written(uses: Uses, node: ast.AST) -> ast.Expr | ast.For | None:
        loop = _zip_loop(uses, node, builtin or (lambda name: False))
        if loop is not None:
            return loop
        literal = _display_of(uses, node)
        node = literal if literal is not None else node
        found = arg_of(node, uses.parents)
        if found is None or len(found[0].args) < 2 or found[0].args[1] is not node:
            return None
        call = found[0]
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args) or not is_tree_map(call.func):
            return None
        statement = uses.parents.get(call)
        if not isinstance(statement, ast.Expr) or not _writes_first_once(uses, call.args[0]):
            return None
        return statement

    return written


def _display_of(uses: Uses, node: ast.AST) -> ast.Tuple | ast.List | None:
    """The tuple or list display (no ``*``) holding ``node`` as an element."""
    parent = uses.parents.get(node)
    if not isinstance(parent, (ast.Tuple, ast.List)) or not isinstance(parent.ctx, ast.Load):
        return None
    return None if any(isinstance(e, ast.Starred) for e in parent.elts) else parent


def _writes_first_once(uses: Uses, func: ast.expr) -> bool:
    if isinstance(func, ast.Lambda):
        return _lambda_writes_first(func)
    if not isinstance(func, ast.Name) or not uses.own(func) or not uses.names.bound_once(func.id):
        return False
    local = uses.names.bindings[func.id][0]
    if not isinstance(local, ast.FunctionDef) or local.decorator_list:
        return False
    params = [*local.args.posonlyargs, *local.args.args]
    if not params:
        return False
    try:
        inner = Uses(local)
        acc = inner.named(params[0].arg)
    except Unknown:
        return False
    events = {w: [Event(0, 1, w)] for w in acc.writes}
    return not acc.handed and facts_of(local, events, 1).counts(0) == {1}


def _lambda_writes_first(func: ast.Lambda) -> bool:
    """``lambda q, ...: q.accum(value)``, ``q`` named nowhere else."""
    params = [*func.args.posonlyargs, *func.args.args]
    body = func.body
    if not params or not isinstance(body, ast.Call) or len(body.args) != 1 or body.keywords:
        return False
    first, arg = params[0].arg, body.args[0]
    return (
        isinstance(body.func, ast.Attribute)
        and isinstance(body.func.value, ast.Name)
        and body.func.value.id == first
        and body.func.attr == "accum"
        and not isinstance(arg, ast.Starred)
        and not any(isinstance(n, ast.Name) and n.id == first for n in ast.walk(arg))
    )


def _zip_loop(uses: Uses, node: ast.AST, builtin) -> ast.For | None:
    """The ``for`` of the rule whose ``zip(...)`` takes a display holding ``node``, where each
    accumulator of the display is written once."""
    literal = _display_of(uses, node)
    found = arg_of(literal, uses.parents) if literal is not None and literal is not node else None
    if found is None or found[1] is not literal:
        return None
    call, loop = found[0], uses.parents.get(found[0])
    if not (isinstance(loop, ast.For) and loop.iter is call and not loop.orelse):
        return None
    if not (isinstance(call.func, ast.Name) and call.func.id == "zip" and builtin("zip")) or call.keywords:
        return None
    if known_count(call, builtin) != len(literal.elts) or not uses.own(node):
        return None  # zip stops before the last accumulator (the display's own count unknown too), or cannot be read
    target = loop.target
    position = next(i for i, a in enumerate(call.args) if a is literal)
    if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) != len(call.args):
        return None
    name = target.elts[position]
    if not isinstance(name, ast.Name):
        return None
    try:
        var = uses.named(name.id)
    except Unknown:
        return None
    inside = all(within(w, loop, uses.parents) for w in var.writes)
    return loop if inside and not var.handed and once_per_iteration(loop, var) else None
