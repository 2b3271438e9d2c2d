"""HJX005: structured residuals need the accumulator form (jax 0.11.1)."""

from __future__ import annotations

import ast

from ...analysis.returns import returns_values
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import has_sres, methods
from ..base import Rule


def sres_with_value_rule(node: ast.ClassDef, kind: Kind) -> bool:
    return has_sres(node) and returns_values(methods(node).get("vjp_bwd_retval"))


RULE = Rule(
    "HJX005",
    "sres-accumulators",
    (0, 11, 1),
    "A primitive whose `vjp_fwd` returns structured residuals `(out, res, nzs_out, sres)` "
    "with a value rule `vjp_bwd_retval`: only `vjp_bwd(self, res, sres, g, *accums)` works, "
    "whatever `--strategy` says.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd_retval(self, res, sres, g):
        return (sres * g,)
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, sres, g, x_acc):
        x_acc.accum(sres * g)
        return None
""",
    needs=("vjp_bwd_retval",),
    kinds=PRIMITIVE_KINDS,
    rewrite=f"{__name__}.rewrite:SresAccumulators",
    class_test=sres_with_value_rule,
)
