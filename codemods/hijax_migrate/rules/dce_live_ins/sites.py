"""HJX010 where ``dce`` is defined outside the primitive's body: in a plain
mixin that primitives inherit, or a module function bound in the class body
(``dce = _dce``). Its signature is changed only where every class that
reaches it is a primitive (jax calls it with ``live_ins``), else refused."""

from __future__ import annotations

import libcst as cst

from ...analysis.chains import HIJAX_MODULES
from ...analysis.cst_blocks import own_statements
from ...analysis.families import Classes, inheritors
from ...analysis.nodes import findall, is_name, sole_target
from ...analysis.scopes import Kind
from ...analysis.shape import last_def
from ..context import NOTE
from ..plans import Plan
from . import old_signature

RULE, PARAM = "dce", "live_ins"


class DceSites:
    """Mixin for DceLiveIns (a RewritePlans): the mixins and bound functions."""

    def old_signature(self, func: cst.FunctionDef) -> bool:
        """The rule's test (``dce_live_ins.old_signature``) of ``ast``'s statement of ``func``."""
        return old_signature(self.prims.bridge.ast_of(func))

    def mixin_plans(self) -> list[Plan]:
        """Old ``dce`` methods of plain classes that primitives inherit."""
        plans, chosen = [], self.options.classes  # a review migrates only the chosen classes
        for cls, kind in self.prims.kinds.items():
            func = last_def(cls, RULE)
            if (
                kind is not Kind.NONE
                or func is None
                or not self.old_signature(func)
                or (chosen is not None and self.prims.qualnames[cls] not in chosen)
            ):
                continue
            plan = self._mixin(cls, func)
            if plan is not None:
                plans.append(plan)
        return plans

    def _mixin(self, cls: cst.ClassDef, func: cst.FunctionDef) -> Plan | None:
        info = self.prims.infos.get(cls)
        if info is None:
            return None
        users, prims = inheritors(self.project, info, Classes(self.prims.infos.values()), RULE)
        if not prims:
            return None  # no hijax class uses it: another protocol
        others = [u.qualname for u in users if u not in prims]
        if others:
            return self.skip(
                func,
                cls,
                f"`{RULE}(self, used_outs)` is inherited by the primitive "
                f"{prims[0].qualname} and by {', '.join(others)}, which is no primitive: left alone; "
                f"give the primitive its own `{RULE}(self, used_outs, {PARAM})`",
            )
        return self.plan_def(cls, func)

    def plan_bound(self, cls: cst.ClassDef, shape) -> Plan | None:
        """``dce = f`` in a primitive's body."""
        assign = self._bound(cls, shape.attributes.get(RULE))
        if assign is None:
            return None
        func, code = self._module_function(assign.value), cst.Module([]).code_for_node(assign.value)
        if func is None:  # jax's own (``hjx.HiPrim.dce``) takes ``live_ins``
            return (
                None
                if self.from_hijax(self.prims.module_scope, code)
                else self.skip(
                    assign,
                    cls,
                    f"`{RULE}` is bound to `{code}`, whose signature is not visible here: jax 0.12 "
                    f"calls `{RULE}(used_outs, {PARAM})`; check it takes `{PARAM}`",
                    NOTE,
                )
            )
        why = self._shared(func, assign.value.value) if self.old_signature(func) else None
        if why:
            return self.skip(
                assign,
                cls,
                f"`{RULE}` is bound to `{code}`, which takes `(self, used_outs)`, "
                f"but {why}: write a `def {RULE}(self, used_outs, {PARAM})` that calls it, "
                "or change it by hand",
            )
        return self.plan_def(cls, func, at=assign) if self.old_signature(func) else None

    def _bound(self, cls: cst.ClassDef, assign: cst.Assign | None) -> cst.Assign | None:
        """The body's ``dce = value``; another form of binding is noted."""
        if assign is None or is_name(sole_target(assign), RULE):
            return assign
        return self.skip(
            assign,
            cls,
            f"`{RULE}` is bound in the class body in a way the tool cannot follow: "
            f"jax 0.12 calls `{RULE}(used_outs, {PARAM})`; check it takes `{PARAM}`",
            NOTE,
        )

    @staticmethod
    def from_hijax(scope, dotted: str) -> bool:
        """``dotted``'s first name is imported from jax's hijax modules, wherever it is bound."""
        bindings = scope.lookup(dotted.partition(".")[0]) if scope is not None else []
        return bool(bindings) and all(b[0] == "import" and b[1].startswith(HIJAX_MODULES) for b in bindings)

    def _module_function(self, value: cst.BaseExpression) -> cst.FunctionDef | None:
        """The one module-level ``def`` a name stands for (a name bound otherwise too: None)."""
        if not isinstance(value, cst.Name):
            return None
        module = self.prims.wrapper.module
        defs = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == value.value]
        bindings = (self.prims.module_scope.lookup(value.value) if self.prims.module_scope else None) or []
        return defs[0] if len(defs) == 1 and len(bindings) == 1 else None

    def _shared(self, func: cst.FunctionDef, name: str) -> str | None:
        """Why changing ``func``'s signature could reach more than jax's calls of a rule."""
        module = self.prims.wrapper.module
        binders = {
            s: cls
            for cls, kind in self.prims.kinds.items()
            for s in own_statements(cls)
            if is_name(sole_target(s), RULE) and is_name(s.value, name)
        }
        if any(not kind.is_primitive for cls, kind in self.prims.kinds.items() if cls in binders.values()):
            return "a class that is no primitive binds it too"
        used = findall(module, cst.Name, lambda n: n.value == name)
        bound = {s.value for s in binders}
        if len([n for n in used if n not in bound]) > 1:  # its own ``def`` name is one
            return f"`{name}` is used otherwise in this file"
        if findall(module, cst.SimpleString, lambda s: name in s.value):
            return f"`{name}` is named in a string (`__all__`?)"
        own = self.context.full_module_name or ""
        if [s for s in self.project.modules_naming(name) if s.module != own] or self.project.use_elsewhere(
            name, self.report.file
        ):
            return f"another file of the tree names `{name}`"
        return None
