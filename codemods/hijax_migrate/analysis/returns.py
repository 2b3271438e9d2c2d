"""The return statements of a rule and what they return, read from ``ast``: the one
implementation, which triage and the rewrites read (a rewrite finds libcst's
``Return`` of each through the bridge)."""

from __future__ import annotations

import ast
import enum

from ..core.stmts import held
from .function_kinds import yields
from .names import parameters

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
    """Does any return hand back cotangents rather than None or logs? A ``yield`` hands back
    values too: a decorator may collect them (``@collect``: ``function_kinds``, where none does)."""
    if func is None:
        return False
    return any(classify(r) in (Returned.TUPLE, Returned.OPAQUE) for r in own_returns(func)) or yields(func)


def tuple_sizes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int | None]:
    """How many values each return gives: a tuple display's items, as written (None: no tuple)."""
    return {len(r.value.elts) if isinstance(r.value, ast.Tuple) else None for r in own_returns(func)}


def visibly_tuple(value: ast.expr | None, func: ast.FunctionDef, builtin, depth: int = 0) -> bool:
    """Is ``value`` a tuple, whatever the spelling: a display (starred items too), ``tuple(...)``
    (``builtin("tuple")``: the name is Python's own), both arms of ``a if c else b``, a
    sum of tuples, a tuple times an integer, or a name every binding in the rule gives a tuple?
    Cotangents then, never backward-pass logs (a dict)."""
    if value is None or depth > 8:
        return False
    if isinstance(value, ast.Tuple):
        return True
    if isinstance(value, ast.IfExp):
        return all(visibly_tuple(v, func, builtin, depth + 1) for v in (value.body, value.orelse))
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return all(visibly_tuple(v, func, builtin, depth + 1) for v in (value.left, value.right))
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        pair = (value.left, value.right)
        return any(visibly_tuple(a, func, builtin, depth + 1) and _is_int(b) for a, b in (pair, pair[::-1]))
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "tuple":
        return builtin("tuple") and not _bound_in(func, "tuple")
    if isinstance(value, ast.Name) and value.id not in _params(func, stars=True):
        binders = _binders(func, value.id)
        return bool(binders) and all(_binds_tuple(node, func, builtin, depth) for node in binders)
    return False


def listed(value: ast.expr | None, func: ast.FunctionDef) -> bool:
    """Is ``value`` visibly a list (jax checks a rule's result against a tuple: a list
    fails): a display, a comprehension, either arm of ``a if c else b``, or a name every
    binding in the rule (nested functions counted too) gives a list, and no parameter?"""
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    if isinstance(value, ast.IfExp):
        return listed(value.body, func) or listed(value.orelse, func)
    if not isinstance(value, ast.Name) or value.id in _params(func, stars=False):
        return False
    binders = _binders(func, value.id)
    return bool(binders) and all(
        isinstance(node, (ast.Assign, ast.AugAssign)) and _is_list(node.value) for node in binders
    )


def _is_int(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) is int  # ``True`` is no integer literal


def _binds_tuple(node: ast.AST, func, builtin, depth: int) -> bool:
    """``name = <tuple>`` (its only target) or ``name += <tuple>``."""
    if isinstance(node, ast.Assign):
        return (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and visibly_tuple(node.value, func, builtin, depth + 1)
        )
    return (
        isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and visibly_tuple(node.value, func, builtin, depth + 1)
    )


def _params(func: ast.FunctionDef, stars: bool) -> set[str]:
    """The parameters' names (``stars``: ``*args`` and ``**kwargs`` too)."""
    args = func.args
    return {p.arg for p in parameters(args) if stars or p not in (args.vararg, args.kwarg)}


def _bound_in(func: ast.FunctionDef, name: str) -> bool:
    return name in _params(func, stars=True) or bool(_binders(func, name))


def _binders(func: ast.FunctionDef, name: str) -> list[ast.AST]:
    """Every statement or expression in the rule's body (nested functions and classes too)
    that binds ``name`` (``del`` counted): any of the data model's binding forms."""
    return [node for stmt in func.body for node in ast.walk(stmt) if name in _bound_by(node)]


def _bound_by(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Assign):
        return {n for target in node.targets for n in _target_names(target)}
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)):
        return _target_names(node.target)
    if isinstance(node, ast.Delete):
        return {n for target in node.targets for n in _target_names(target)}
    if isinstance(node, ast.withitem):
        return _target_names(node.optional_vars) if node.optional_vars is not None else set()
    if isinstance(node, ast.alias):
        return {node.asname or node.name.partition(".")[0]}
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return set(node.names)
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return {node.name} if node.name else set()
    if isinstance(node, ast.MatchMapping):
        return {node.rest} if node.rest else set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return _target_names(node.name) if type(node).__name__ == "TypeAlias" else set()


def _target_names(target: ast.expr) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return {n for e in target.elts for n in _target_names(e)}
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return set()


def _is_list(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return _is_list(value.left) or _is_list(value.right)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list"


_CATCHING = (ast.Try, ast.With, ast.AsyncWith, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


def in_catching_block(ret: ast.Return, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Could an exception raised at ``ret`` be caught, or swallowed, inside the rule: does a
    ``try`` or ``with`` of the rule's own hold it?"""
    stack = [(stmt, False) for stmt in func.body]
    while stack:
        stmt, inside = stack.pop()
        if stmt is ret:
            return inside
        if not isinstance(stmt, _NESTED):
            stack += [(child, inside or isinstance(stmt, _CATCHING)) for child in held(stmt)]
    return False
