"""The return statements of a rule and what they return, read from ``ast``: the one
implementation, which triage and the rewrites read (a rewrite finds libcst's
``Return`` of each through the bridge)."""

from __future__ import annotations

import ast
import enum

from ..core.stmts import held

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class Returned(enum.Enum):
    NOTHING = "None"  # bare return, return None
    LOGS = "dict"  # a dict of backward-pass log entries
    TUPLE = "tuple"  # a tuple or list display: one cotangent per input
    OPAQUE = "opaque"  # a name, call or expression whose length is not visible


def own_returns(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """The returns of the function itself, not of functions or classes nested in
    it, in source order. A return is a statement: only statements are walked."""
    found, stack = [], list(reversed(func.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        elif not isinstance(node, _NESTED):
            stack.extend(reversed([*held(node)]))
    return found


def is_none(expr: ast.expr | None) -> bool:
    return expr is None or (isinstance(expr, ast.Constant) and expr.value is None)


def classify(ret: ast.Return) -> Returned:
    value = ret.value
    if is_none(value):
        return Returned.NOTHING
    if isinstance(value, (ast.Dict, ast.DictComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
    ):
        return Returned.LOGS
    if isinstance(value, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return Returned.TUPLE
    return Returned.OPAQUE


def returns_values(func: ast.FunctionDef | ast.AsyncFunctionDef | None) -> bool:
    """Does any return hand back cotangents rather than None or logs?"""
    return func is not None and any(classify(r) in (Returned.TUPLE, Returned.OPAQUE) for r in own_returns(func))


def tuple_sizes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int | None]:
    """How many values each return gives: a tuple display's items, as written (None: no tuple)."""
    return {len(r.value.elts) if isinstance(r.value, ast.Tuple) else None for r in own_returns(func)}
