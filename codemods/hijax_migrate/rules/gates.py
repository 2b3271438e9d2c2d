"""What rules read of a version gate in a class body: the arms of an ``if``
chain, and the leaves ``analysis.version_tests.evaluate`` asks a rule for
(jax's version by its qualified names, literals, module constants)."""

from __future__ import annotations

import ast

import libcst as cst

from ..analysis.bridge import Bridge
from ..analysis.cst_blocks import LINES
from ..analysis.version_tests import VERSION, VERSION_NAMES, evaluate, literal_value


def if_arms(stmt: cst.If) -> list[tuple[cst.BaseExpression | None, cst.BaseSuite]]:
    """(test, body) of each arm of an ``if``/``elif``/``else`` chain; None: ``else``."""
    arms, node = [], stmt
    while isinstance(node, cst.If):
        arms.append((node.test, node.body))
        node = node.orelse
    return arms + ([(None, node.body)] if isinstance(node, cst.Else) else [])


def version_leaf(rule, expr: cst.BaseExpression):
    """For ``evaluate``: jax's version (``is_jax_version``), a literal, a module constant's literal."""
    if is_jax_version(rule, expr):
        return VERSION
    stmt = rule.constant_assignment(expr) if isinstance(expr, cst.Name) else None
    if stmt is not None:  # the one module-level assignment the read resolves to
        return _constant(stmt.value)
    return literal_value(expr)


def is_jax_version(rule, expr: cst.BaseExpression, *above: cst.CSTNode) -> bool:
    """Is ``expr`` jax's version, as its names resolve (an alias too): one of ``VERSION_NAMES``,
    or ``importlib.metadata.version("jax")``; ``above``: its ancestors the visit has not
    entered. The one test: a class body's gates (``version_leaf``) and HJX014's comparisons."""
    if any(q.name in VERSION_NAMES for q in rule.qualified_names(expr, *above)):
        return True
    return _names_jax(expr) and any(
        q.name == "importlib.metadata.version" for q in rule.qualified_names(expr.func, expr, *above)
    )


def _names_jax(expr: cst.BaseExpression) -> bool:
    """A call with one argument, the string ``"jax"``: ``version("jax")``."""
    return (
        isinstance(expr, cst.Call)
        and len(expr.args) == 1
        and isinstance(expr.args[0].value, cst.SimpleString)
        and expr.args[0].value.value in ('"jax"', "'jax'")
    )


def _constant(value: ast.expr):
    try:
        found = ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return found if isinstance(found, (str, tuple)) else None


def dead_arms(cls: cst.ClassDef, bridge: Bridge, target, leaf) -> list[tuple[int, int]]:
    """The line spans (of ``bridge``'s text) of the arms of the class body's ``if``
    chains that no release of the target's line runs: every test up to the arm taken
    evaluates there."""
    spans = []
    for node in (stmt for stmt in getattr(cls.body, "body", ()) if isinstance(stmt, cst.If)):
        arms = if_arms(node)
        values = [True if test is None else evaluate(test, target, leaf) for test, _ in arms]
        taken = next((i for i, value in enumerate(values) if value is not False), None)
        if taken is None or values[taken] is True:
            spans += [_span(bridge, body) for i, (_, body) in enumerate(arms) if i != taken]
    return spans


def _span(bridge: Bridge, suite: cst.BaseSuite) -> tuple[int, int]:
    """The lines an arm's statements stand on, from ``ast``'s statements through the bridge."""
    first, last = suite.body[0], suite.body[-1]
    first = first.body[0] if isinstance(first, LINES) else first
    last = bridge.ast_of(last.body[-1] if isinstance(last, LINES) else last)
    return bridge.ast_of(first).lineno, last.end_lineno or last.lineno
