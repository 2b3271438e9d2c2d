"""HJX005: structured residuals need the accumulator form (jax 0.11.1)."""

from __future__ import annotations

import libcst as cst

from ...analysis.returns import returns_values
from ...analysis.shape import ClassShape
from ..context import RuleTransformer
from ..plans import Plan
from ..writes import AccumulatorWrites
from . import RULE


class SresAccumulators(AccumulatorWrites, RuleTransformer):
    rule = RULE

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("vjp_bwd_retval")
        if not shape.has_sres or func is None or not returns_values(self.prims.bridge.ast_of(func)):
            return None
        if "vjp_bwd" in shape.methods or "vjp_bwd_retval_logs" in shape.attributes:
            return self.skip(
                func,
                cls,
                "structured residuals with `vjp_bwd_retval` beside `vjp_bwd` "
                "or a logs flag: merge them into one accumulator `vjp_bwd` by hand",
            )
        uses = self.reaching(cls, func, "vjp_bwd_retval")
        if uses:
            return self.skip(
                func,
                cls,
                "structured residuals need the accumulator form, and `.vjp_bwd_retval` "
                f"at {uses[0].where} may call this rule, which that would break; port both by hand",
            )
        plan = self.to_accumulators(cls, shape, func, "structured residuals need the accumulator form")
        if plan is not None:
            plan.new_name = "vjp_bwd"
        return plan
