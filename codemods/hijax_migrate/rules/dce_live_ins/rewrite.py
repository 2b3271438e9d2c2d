"""HJX010: ``dce(self, used_outs)`` gains jax 0.12's ``live_ins`` parameter,
and the calls inside it that delegate to another ``dce`` pass it on."""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import findall, is_call, is_name
from ...analysis.shape import ClassShape
from ..context import RuleTransformer
from ..named_calls import named_call
from ..plans import Plan, RewritePlans
from . import RULE
from .sites import PARAM, DceSites

_FIX = (
    "calls a `dce` without `live_ins`, and the tool cannot tell that the one it reaches takes them; "
    "jax 0.12's takes `(used_outs, live_ins)`: pass the live inputs by hand"
)


class DceLiveIns(DceSites, RewritePlans, RuleTransformer):
    rule = RULE

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("dce")
        if func is None:
            return self.plan_bound(cls, shape)
        return self.plan_def(cls, func) if self.old_signature(func) else None

    def extra_plans(self) -> list[Plan]:
        return self.mixin_plans()

    def plan_def(self, cls: cst.ClassDef, func: cst.FunctionDef, at: cst.CSTNode | None = None) -> Plan | None:
        """``func`` gains the parameter; ``at``: where it is bound (``dce = f``), if not its own ``def``."""
        called = named_call(self, self.prims.infos.get(cls), func, "dce", delegations=True)
        if called is not None:
            return self.skip(
                func,
                cls,
                f"`dce` is called at {called}, outside the class's body, which would miss `{PARAM}`: "
                f"left as written; add `{PARAM}` to `dce` and pass the live inputs there",
            )
        if findall(func, cst.Name, lambda name: is_name(name, PARAM)):
            return self.skip(
                func,
                cls,
                f"`dce` takes `(self, used_outs)` but already names `{PARAM}`: add jax 0.12's third parameter by hand",
            )
        plan = Plan(func, cls, new_params=[PARAM])
        target = "`dce`" if at is None else f"`{func.name.value}`, bound as `dce`,"
        self.changed(self.prims.line(func if at is None else at), cls, f"added the `{PARAM}` parameter to {target}")
        return plan

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        if self.focus is not None:  # a module function bound as ``dce`` is edited where it stands
            self.focus |= {plan.func for plan in self._plans.values()}
        self._in_dce: list[bool] = []  # per enclosing function: is it a planned dce?

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._in_dce.append(node in self._plans)

    def leave_FunctionDef(self, original_node, updated_node):
        self._in_dce.pop()
        return super().leave_FunctionDef(original_node, updated_node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        func, args = updated_node.func, updated_node.args
        if not (isinstance(func, cst.Attribute) and func.attr.value == "dce") or any(
            arg.star or arg.keyword for arg in args
        ):
            return updated_node
        explicit = len(args) == 2 and is_name(args[0].value, "self")  # ``Base.dce(self, used_outs)``
        if not (len(args) == 1 or explicit):
            return updated_node
        in_dce = bool(self._in_dce) and self._in_dce[-1]
        if in_dce and (self._takes_live_ins(func.value) if explicit else is_call(func.value, "super")):
            return updated_node.with_changes(args=[*args, cst.Arg(cst.Name(PARAM))])
        if in_dce or (self._stack and self._stack[-1] in {p.cls for p in self._plans.values()}):
            self.skipped(self.prims.line(original_node), self._stack[-1] if self._stack else None, _FIX)
        return updated_node

    def _takes_live_ins(self, value: cst.BaseExpression) -> bool:
        """``value.dce`` takes ``live_ins`` after this run: jax's base class, a
        primitive of the tree (its ``dce`` is migrated, or is jax's), or a class
        whose ``dce`` this file migrates."""
        if not isinstance(value, (cst.Name, cst.Attribute)):
            return False
        here = self.prims.infos.get(self._stack[-1]) if self._stack else None
        scope = here.scope if here is not None else self.prims.module_scope
        name = cst.Module([]).code_for_node(value)
        if self.from_hijax(scope, name):
            return True
        found = self.project.classes_of_name(scope, name) if scope is not None else []
        if len(found) != 1:
            return False
        planned = {self.prims.infos.get(plan.cls) for plan in self._plans.values()}
        definer = self._resolve(value, "dce")
        return self.project.class_kind(found[0]).is_primitive or (definer is not None and definer in planned)
