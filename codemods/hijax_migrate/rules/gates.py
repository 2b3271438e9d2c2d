"""What rules read of a version gate in a class body: the arms of an ``if``
chain, and the leaves ``analysis.version_tests.evaluate`` asks a rule for
(jax's version by its qualified name, literals, module constants)."""

from __future__ import annotations

import ast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from ..analysis.version_tests import VERSION, VERSION_NAMES, evaluate, literal_value


def if_arms(stmt: cst.If) -> list[tuple[cst.BaseExpression | None, cst.BaseSuite]]:
    """(test, body) of each arm of an ``if``/``elif``/``else`` chain; None: ``else``."""
    arms, node = [], stmt
    while isinstance(node, cst.If):
        arms.append((node.test, node.body))
        node = node.orelse
    return arms + ([(None, node.body)] if isinstance(node, cst.Else) else [])


def version_leaf(rule, expr: cst.BaseExpression):
    """For ``evaluate``: jax's version (its qualified name), a literal, a module constant's literal."""
    full = get_full_name_for_node(expr) if isinstance(expr, (cst.Name, cst.Attribute)) else None
    if full is not None and full.endswith(("__version__", "__version_info__", "._version")):
        if any(q.name in VERSION_NAMES for q in rule.qualified_names(expr)):
            return VERSION
    if isinstance(expr, cst.Name) and rule.name_model is not None:
        stmt = rule.name_model.module_constant(expr.value)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            return _constant(stmt.value)
    return literal_value(expr)


def _constant(value: ast.expr):
    try:
        found = ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return found if isinstance(found, (str, tuple)) else None


def dead_arms(body: list[ast.stmt], suite: cst.BaseSuite, target, leaf) -> list[tuple[int, int]]:
    """The line spans of the arms of the body's ``if`` chains that no release of the
    target's line runs: every test up to the arm taken evaluates there. ``body`` is the
    ``ast`` of ``suite``'s statements; their ``if`` statements pair in order."""
    ifs = [stmt for stmt in body if isinstance(stmt, ast.If)]
    suites = [stmt for stmt in getattr(suite, "body", ()) if isinstance(stmt, cst.If)]
    spans = []
    for stmt, node in zip(ifs, suites) if len(ifs) == len(suites) else ():
        if len(_ast_arms(stmt)) != len(if_arms(node)):
            continue  # not read alike: nothing is dropped
        values = [True if test is None else evaluate(test, target, leaf) for test, _ in if_arms(node)]
        taken = next((i for i, value in enumerate(values) if value is not False), None)
        if taken is None or values[taken] is True:
            spans += [span for i, span in enumerate(_ast_arms(stmt)) if i != taken]
    return spans


def _ast_arms(stmt: ast.If) -> list[tuple[int, int]]:
    """The line span of each arm of an ``if``/``elif``/``else`` chain, as ``if_arms`` lists them."""
    spans, node = [], stmt
    while True:
        spans.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno))
        elif_ = len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)
        if elif_ and node.orelse[0].col_offset == node.col_offset:  # ``elif``, not ``else:`` over an ``if``
            node = node.orelse[0]
            continue
        if node.orelse:
            spans.append((node.orelse[0].lineno, node.orelse[-1].end_lineno or node.orelse[-1].lineno))
        return spans
