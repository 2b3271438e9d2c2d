"""HJX010: ``dce(self, used_outs)`` gains jax 0.12's ``live_ins`` parameter."""

from __future__ import annotations

import ast

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods, positional
from ..base import Rule


def old_signature(func: ast.FunctionDef | None) -> bool:
    """As ``rewrite._old_signature``: exactly ``(self, used_outs)``."""
    return (func is not None and len(positional(func)) == 2 and not func.args.defaults
            and func.args.vararg is None)


def old_dce(node: ast.ClassDef, kind: Kind) -> bool:
    return old_signature(methods(node).get("dce"))


RULE = Rule(
    "HJX010", "dce-live-ins", (0, 12, 0),
    "jax 0.12 calls `dce(used_outs, live_ins)`: an override `dce(self, used_outs)` gains the "
    "`live_ins` parameter, and its `super().dce(...)` calls pass it on.",
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
    needs=("def dce",),
    kinds=PRIMITIVE_KINDS,
    rewrite=f"{__name__}.rewrite:DceLiveIns",
    class_test=old_dce,
)
