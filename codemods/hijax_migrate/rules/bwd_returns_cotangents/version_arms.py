"""A class body that already switches its ``vjp_bwd`` on jax's version.

``if jax.__version_info__ >= (0, 11): def vjp_bwd(self, res, g, x_acc): ...
else: def vjp_bwd(self, res, g): return (...)``: the arm the target takes is
known when each test before it evaluates, at the target's release line
(``analysis.version_tests``), to a known value. Where that arm's rule is an
accumulator rule, the class runs right at the target as written: it is left
alone, without an error (a value rule in another arm, which jax accepts only
at 0.8.0, gets a note). Anything else stays as ``in_branches`` decides.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ...analysis.accum_uses import accumulator_params
from ...analysis.ast_summary import rule_form
from ...analysis.bridge import Bridge
from ...analysis.families import descendants
from ...analysis.fwd_signature import input_count
from ...analysis.nodes import findall
from ...analysis.returns import returns_values
from ...analysis.shape import ClassShape, class_shape, conditional_defs
from ...analysis.summary import CLASSIC
from ...analysis.version_tests import evaluate
from ...core.versions import format_version
from ..ast_tests import methods
from ..context import NOTE
from ..gates import if_arms, version_leaf


def _rules(body: cst.BaseSuite) -> list[cst.FunctionDef]:
    return [s for s in getattr(body, "body", ()) if isinstance(s, cst.FunctionDef) and s.name.value == "vjp_bwd"]


def taken_at_target(cls: cst.ClassDef, target, leaf: Callable) -> tuple[cst.FunctionDef, list] | None:
    """(the ``vjp_bwd`` the target takes, the other arms' ones), where every ``def
    vjp_bwd`` of the class body is an arm's own statement in one ``if`` chain and
    the tests decide at the target which arm runs; None otherwise."""
    every = findall(cls.body, cst.FunctionDef, lambda f: f.name.value == "vjp_bwd")
    for stmt in cls.body.body:
        arms = if_arms(stmt) if isinstance(stmt, cst.If) else []
        inside = [func for _, body in arms for func in _rules(body)]
        if not inside or len(inside) != len(every):
            continue
        for test, body in arms:
            value = True if test is None else evaluate(test, target, leaf)
            if value is None:
                return None
            if value:
                taken = _rules(body)
                return (taken[0], [f for f in inside if f is not taken[0]]) if len(taken) == 1 else None
        return None
    return None


def right_at_target(
    cls: cst.ClassDef, shape: ClassShape, func: cst.FunctionDef, inputs: int | None, bridge: Bridge
) -> bool:
    """Is ``func`` an accumulator rule, one accumulator an input (``inputs``: their
    count, if known), returning no cotangents, undecorated, in a class that
    defines no ``vjp_bwd_retval``?"""
    rule = bridge.ast_of(func)
    if func.decorators or rule_form(rule) == CLASSIC or returns_values(rule):
        return False
    if "vjp_bwd_retval" in (*shape.methods, *shape.attributes, *conditional_defs(cls, bridge)):
        return False
    params = accumulator_params(rule, 3 if shape.has_sres else 2)
    if params.star is not None:  # ``*arg_accums``: every input's, whatever their count
        return not params.named or (inputs is not None and len(params.named) <= inputs)
    return inputs is not None and len(params.named) == inputs


def _inputs(rule, cls: cst.ClassDef) -> int | None:
    """How many inputs the primitive takes: HJX002's fact (``fwd_signature``), read
    from ``ast``'s statement of the class (a class with version arms: seldom)."""
    return input_count(methods(rule.prims.bridge.ast_of(cls)))


def older_value_rules(others: list[cst.FunctionDef], bridge: Bridge) -> list[cst.FunctionDef]:
    """The other arms' rules that return cotangents: right at jax 0.8.0 only."""
    return [func for func in others if returns_values(bridge.ast_of(func))]


def switched_right(rule, cls: cst.ClassDef) -> bool:
    """``rule`` (the transformer): is ``cls`` such a class? Notes each older value rule."""
    found = taken_at_target(cls, rule.options.target, lambda expr: version_leaf(rule, expr))
    if (
        found is None
        or not right_at_target(
            cls, class_shape(cls, rule.prims.bridge), found[0], _inputs(rule, cls), rule.prims.bridge
        )
        or _inherited(rule, cls)
    ):
        return False
    for func in older_value_rules(found[1], rule.prims.bridge):
        rule.skip(
            func,
            cls,
            f"`vjp_bwd` runs as an accumulator rule at jax {format_version(rule.options.target)} (line "
            f"{rule.prims.line(found[0])}), left as written; this arm, for other releases, returns cotangents, "
            "which jax accepts only at 0.8.0",
            NOTE,
        )
    return True


def _inherited(rule, cls: cst.ClassDef) -> bool:
    """Does a class of the tree inherit from ``cls``? Its rules would meet this one
    (a ``vjp_bwd_retval`` below an accumulator ``vjp_bwd``): decided as before."""
    info = rule.prims.infos.get(cls)
    return info is None or rule.project is None or bool(descendants(rule.project, info, rule.families.here()))
