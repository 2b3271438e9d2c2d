"""HJX010: ``dce(self, used_outs)`` gains jax 0.12's ``live_ins`` parameter."""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import findall, is_call, is_name
from ...analysis.shape import ClassShape, positional
from ..context import RuleTransformer
from ..plans import Plan, RewritePlans
from . import RULE

PARAM = "live_ins"


def _old_signature(func: cst.FunctionDef) -> bool:
    """Exactly ``(self, used_outs)``: nothing that would take a third argument."""
    params = func.params
    plain = all(p.default is None for p in (*params.posonly_params, *params.params))
    return len(positional(func)) == 2 and plain and not isinstance(params.star_arg, cst.Param)


class DceLiveIns(RewritePlans, RuleTransformer):
    rule = RULE
    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("dce")
        if func is None or not _old_signature(func):
            return None
        if findall(func, cst.Name, lambda name: is_name(name, PARAM)):
            return self.skip(func, cls, f"`dce` takes `(self, used_outs)` but already names `{PARAM}`: "
                             f"add jax 0.12's third parameter by hand")
        plan = Plan(func, cls, new_params=[PARAM])
        return self.done(plan, f"added the `{PARAM}` parameter to `dce`")

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._in_dce: list[bool] = []  # per enclosing function: is it a planned dce?

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._in_dce.append(node in self._plans)

    def leave_FunctionDef(self, original_node, updated_node):
        self._in_dce.pop()
        return super().leave_FunctionDef(original_node, updated_node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        func = updated_node.func
        one_arg = len(updated_node.args) == 1 and not updated_node.args[0].star
        if not (isinstance(func, cst.Attribute) and func.attr.value == "dce" and one_arg):
            return updated_node
        is_super = is_call(func.value, "super")
        if self._in_dce and self._in_dce[-1] and is_super:
            return updated_node.with_changes(args=[*updated_node.args, cst.Arg(cst.Name(PARAM))])
        if self._stack and self._stack[-1] in {p.cls for p in self._plans.values()}:
            self.skipped(self.prims.line(self._stack[-1]), self._stack[-1],
                         "calls `dce` with one argument; jax 0.12's takes `(used_outs, live_ins)`: "
                         "pass the live inputs by hand")
        return updated_node
