"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import libcst as cst

from ..context import RuleTransformer
from ..registry import rule
from ..summary import PRIMITIVE_KINDS
from ..shape import ClassShape, is_nzs_name, positional, star_name
from .plans import Plan, RewritePlans


def lacks_nzs_in(fwd: cst.FunctionDef, shape: ClassShape) -> bool:
    names = positional(fwd)[1:]
    expand = shape.methods.get("expand")
    if expand is not None and star_name(expand) is None and star_name(fwd) is None:
        return len(names) == len(positional(expand)) - 1
    return not names or not is_nzs_name(names[0])


@rule(
    "HJX002", "fwd-nzs-in", (0, 9, 0),
    "`vjp_fwd(self, *args)` from before jax 0.9 gains the `nzs_in` parameter "
    "(which inputs have non-zero tangents); `super().vjp_fwd(...)` calls in it pass it on.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * x, x
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x
""",
    needs=("vjp_fwd",),
    kinds=PRIMITIVE_KINDS,
)
class FwdNzsIn(RewritePlans, RuleTransformer):
    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        fwd = shape.methods.get("vjp_fwd")
        if fwd is None or not lacks_nzs_in(fwd, shape):
            return None
        plan = Plan(fwd, cls, insert_params=[(1, "nzs_in")])
        return self.done(plan, "added the `nzs_in` parameter to `vjp_fwd`")

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._in_fwd: list[bool] = []  # per enclosing function: is it a planned vjp_fwd?

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._in_fwd.append(node in self._plans)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        func = updated_node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "vjp_fwd"):
            return updated_node
        if self._in_fwd and self._in_fwd[-1]:
            return updated_node.with_changes(args=[cst.Arg(cst.Name("nzs_in")), *updated_node.args])
        if self._stack and self._stack[-1] in {p.cls for p in self._plans.values()}:
            line = self.prims.line(self._stack[-1])
            self.skipped(line, self._stack[-1], "calls `vjp_fwd` outside `vjp_fwd`: pass `nzs_in` by hand")
        return updated_node

    def leave_FunctionDef(self, original_node, updated_node):
        self._in_fwd.pop()
        return super().leave_FunctionDef(original_node, updated_node)
