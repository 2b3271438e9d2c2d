"""A version gate's test, evaluated as Python would at the target jax.

Three values: True, False, None (not known). The target stands for its
release line: ``0.12`` (``(0, 12, 0)``) is every ``0.12...``, so only what
holds on each of them is known. ``jax.__version__`` is a string starting with
the target's text, ``jax.__version_info__`` a tuple of ints starting with its
parts; any other name is unknown, but for the module constants the caller
resolves (``leaf``). ``or``, ``and``, ``not`` and chained comparisons are
read as Python reads them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import libcst as cst

VERSION_NAMES = {
    "jax.__version__",
    "jax.version.__version__",
    "jax.version._version",
    "jax.__version_info__",
    "jax.version.__version_info__",
}
_ORDER = {
    cst.Equal: lambda c: c == 0,
    cst.NotEqual: lambda c: c != 0,
    cst.LessThan: lambda c: c < 0,
    cst.LessThanEqual: lambda c: c <= 0,
    cst.GreaterThan: lambda c: c > 0,
    cst.GreaterThanEqual: lambda c: c >= 0,
}
VERSION = object()  # a leaf that is jax's version (string or tuple, as its literal says)


def known_prefix(target: tuple[int, ...]) -> tuple[int, ...]:
    """The parts every release of the target's line shares: trailing zeros
    past the minor version say nothing (``0.12`` is parsed ``(0, 12, 0)``)."""
    parts = list(target)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def evaluate(expr: cst.BaseExpression, target: tuple[int, ...], leaf: Callable) -> bool | None:
    """``leaf(expr)``: VERSION for jax's version, a Python value for a literal or
    constant it resolves, None for anything else."""
    if isinstance(expr, cst.BooleanOperation):
        left, right = evaluate(expr.left, target, leaf), evaluate(expr.right, target, leaf)
        if isinstance(expr.operator, cst.Or):
            return True if True in (left, right) else (False if left is right is False else None)
        return False if False in (left, right) else (True if left is right is True else None)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        value = evaluate(expr.expression, target, leaf)
        return None if value is None else not value
    if isinstance(expr, cst.Comparison):
        return _comparison(expr, target, leaf)
    return None


def _comparison(expr: cst.Comparison, target, leaf) -> bool | None:
    """A chain ``a < b < c``: each link, joined by ``and``."""
    values, left = [], expr.left
    for link in expr.comparisons:
        values.append(_link(leaf(left), type(link.operator), leaf(link.comparator), target))
        left = link.comparator
    return False if False in values else (True if all(v is True for v in values) else None)


def _link(left, op, right, target) -> bool | None:
    test = _ORDER.get(op)
    if test is None or (left is VERSION) == (right is VERSION):
        return None  # ``is``, ``in``, two versions or none: not read
    flip = right is VERSION
    literal = left if flip else right
    outcomes = _outcomes(literal, target)
    if outcomes is None:
        return None
    results = {test(-c if flip else c) for c in outcomes}
    return results.pop() if len(results) == 1 else None


def _outcomes(literal, target) -> set[int] | None:
    """The signs ``version <=> literal`` may take on the target's line."""
    prefix = known_prefix(target)
    if isinstance(literal, str):
        return _signs(".".join(map(str, prefix)), literal, ".")
    if isinstance(literal, tuple) and all(isinstance(p, int) and not isinstance(p, bool) for p in literal):
        return _signs(prefix, literal, None)
    return None


def _signs(known, literal, sep) -> set[int]:
    """``known`` is what every version starts with (then, for a string, nothing or
    ``sep`` and more; for a tuple, nothing or more parts)."""
    for a, b in zip(known, literal):
        if a != b:
            return {1 if a > b else -1}
    if len(literal) < len(known):
        return {1}  # the literal is a proper prefix: every version is longer
    if len(literal) == len(known):
        return {0, 1}  # exactly the prefix, or longer
    if sep is None:
        return {-1, 0, 1}
    nxt = literal[len(known)]
    return {-1, 0, 1} if nxt == sep else ({-1} if nxt > sep else {-1, 1})


def literal_value(node: cst.BaseExpression):
    """A string or tuple literal's value (None: not one)."""
    if not isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Tuple)):
        return None
    try:
        value = ast.literal_eval(cst.Module([]).code_for_node(node).strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    return value if isinstance(value, (str, tuple)) else None
