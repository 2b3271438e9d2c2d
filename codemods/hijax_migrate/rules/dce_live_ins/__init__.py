"""HJX010: ``dce(self, used_outs)`` gains jax 0.12's ``live_ins`` parameter."""

from __future__ import annotations

import ast

from ...analysis.namespace import ASSIGN, DEF, ON_BASE
from ...analysis.scopes import PRIMITIVE_KINDS, Kind, Scope
from ..ast_tests import assigned, methods, positional
from ..base import Rule


def old_signature(func: ast.FunctionDef | None) -> bool:
    """Exactly ``(self, used_outs)``: nothing that would take a third argument (the rule's
    one test, read by its triage and its rewrite)."""
    return func is not None and len(positional(func)) == 2 and not func.args.defaults and func.args.vararg is None


def old_dce(node: ast.ClassDef, kind: Kind) -> bool:
    """A primitive's old ``dce``, or one bound in its body (``dce = _dce``)."""
    return kind is not Kind.NONE and (old_signature(methods(node).get("dce")) or "dce" in assigned(node))


def through_mixin(code: str, tree: ast.Module, classes: list, scope: Scope, project) -> bool:
    """A plain class's old ``dce`` that a primitive inherits (here or in another file)."""
    from ...analysis.families import Classes, descendants

    here = Classes(info for _, _, info in classes)
    return any(
        kind is Kind.NONE
        and old_signature(methods(node).get("dce"))
        and any(project.class_kind(sub).is_primitive for sub in descendants(project, info, here))
        for node, kind, info in classes
    )


RULE = Rule(
    "HJX010",
    "dce-live-ins",
    (0, 12, 0),
    "jax 0.12 calls `dce(used_outs, live_ins)`: an override `dce(self, used_outs)` gains the "
    "`live_ins` parameter, and the calls in it that delegate to another `dce` (`super().dce(used_outs)`, "
    "`HiPrim.dce(self, used_outs)`) pass it on; so does a `dce` in a plain mixin that only primitives "
    "inherit, or a module function bound as `dce = _dce` and used for nothing else.",
    before="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def dce(self, used_outs):
        return super().dce(used_outs)
""",
    after="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def dce(self, used_outs, live_ins):
        return super().dce(used_outs, live_ins)
""",
    # the name where it may be bound (``sources.bound_names``): ``def dce``, and a rule bound in the
    # class body (``dce = _dce``), whose base may come from another module (naming no hijax base)
    needs=("bound dce",),
    kinds=PRIMITIVE_KINDS | {Kind.NONE},
    # the forms it decides (a mixin's ``def``: ``through_mixin``)
    binds={"dce": frozenset({DEF, ASSIGN, DEF + ON_BASE})},
    rewrite=f"{__name__}.rewrite:DceLiveIns",
    class_test=old_dce,
    family_test=through_mixin,
)
