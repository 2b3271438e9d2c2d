"""HJX005: structured residuals need the accumulator form (jax 0.11.1)."""

from __future__ import annotations

import libcst as cst

from ..analysis.returns import own_returns, returns_values
from ..analysis.shape import ClassShape
from ..analysis.summary import PRIMITIVE_KINDS
from .context import RuleTransformer
from .plans import Plan
from .registry import rule
from .writes import AccumulatorWrites


@rule(
    "HJX005", "sres-accumulators", (0, 11, 1),
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
)
class SresAccumulators(AccumulatorWrites, RuleTransformer):
    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("vjp_bwd_retval")
        if not shape.has_sres or func is None or not returns_values(own_returns(func)):
            return None
        if "vjp_bwd" in shape.methods or "vjp_bwd_retval_logs" in shape.attributes:
            return self.skip(func, cls, "structured residuals with `vjp_bwd_retval` beside `vjp_bwd` "
                             "or a logs flag: merge them into one accumulator `vjp_bwd` by hand")
        where = self.where_used("vjp_bwd_retval")
        if where is not None:
            return self.skip(func, cls, "structured residuals need the accumulator form, and `.vjp_bwd_retval` "
                             f"is used as a value at {where}, where that would break the call; port both by hand")
        plan = self.to_accumulators(cls, shape, func, "structured residuals need the accumulator form")
        if plan is not None:
            plan.new_name = "vjp_bwd"
        return plan
