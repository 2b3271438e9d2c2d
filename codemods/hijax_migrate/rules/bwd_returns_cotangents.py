"""HJX001: a ``vjp_bwd`` that returns cotangents instead of accumulating them."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from ..accum import return_none
from ..context import RuleTransformer
from ..registry import rule
from ..returns import Returned, classify, own_returns, returns_values, tuple_items
from ..shape import ClassShape, class_shape, positional, star_name
from ..summary import PRIMITIVE_KINDS, Kind
from .plans import Plan
from .writes import AccumulatorWrites


def uses_accumulators(func: cst.FunctionDef, names: list[str]) -> bool:
    """Does the rule already write cotangents (``.accum``, ``.ref``, a helper)?"""
    body = func.body
    if m.findall(body, m.Call(func=m.Attribute(attr=m.Name("accum")))):
        return True
    acc = m.OneOf(*(m.Name(n) for n in names))
    return bool(m.findall(body, m.Attribute(value=acc, attr=m.Name("ref")))
                or m.findall(body, m.Call(args=[m.ZeroOrMore(), m.Arg(acc), m.ZeroOrMore()])))


@rule(
    "HJX001", "bwd-returns-cotangents", (0, 8, 1),
    "A `vjp_bwd` that returns cotangents: renamed to `vjp_bwd_retval`, or its "
    "returns turned into accumulator writes followed by `return None`.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
    needs=("vjp_bwd",),
    kinds=PRIMITIVE_KINDS | {Kind.EXTERNAL},  # the external ones get a warning
)
class BwdReturnsCotangents(AccumulatorWrites, RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        for cls, kind in self.prims.kinds.items():
            func = class_shape(cls).methods.get("vjp_bwd") if kind is Kind.EXTERNAL else None
            if func is not None and returns_values(own_returns(func)):
                self.skip(func, cls, "a base class comes from outside the tree and cannot be decided; "
                          "left alone (pass --base MODULE.CLASS if it is a hijax primitive)")

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("vjp_bwd")
        if func is None or not returns_values(own_returns(func)):
            return None
        fixed = 3 if shape.has_sres else 2
        accs = positional(func)[1 + fixed:]
        star = star_name(func)
        if accs or star:
            return self.half_ported(cls, shape, func, accs, star)
        if "vjp_bwd_retval" in shape.methods or "vjp_bwd_retval" in shape.attributes:
            return self.skip(func, cls, "defines both `vjp_bwd` and `vjp_bwd_retval`; left as written")
        if shape.has_sres:
            return self.to_accumulators(cls, shape, func, "structured residuals need the accumulator form")
        if self.options.strategy == "accum":
            return self.to_accumulators(cls, shape, func, "--strategy accum")
        return self.rename(cls, func, "vjp_bwd_retval")

    def half_ported(self, cls, shape, func, accs, star) -> Plan | None:
        returns = own_returns(func)
        if any(classify(r) is Returned.OPAQUE for r in returns):
            return self.skip(func, cls, "`vjp_bwd` takes accumulators but returns a name or call: "
                             "it may be log entries, or cotangents already written by a helper; not guessing")
        targets = accs or [f"{star}[{i}]" for i in range(max(len(tuple_items(r)) for r in returns
                                                              if classify(r) is Returned.TUPLE))]
        plan = Plan(func, cls)
        if uses_accumulators(func, accs or [star]):
            for ret in returns:
                if classify(ret) is Returned.TUPLE:
                    plan.returns[ret] = [return_none(ret)]
            return self.done(plan, "dropped returned cotangents already written to accumulators")
        return self.fill_writes(plan, shape, returns, targets, "returned cotangents became accumulator writes")
