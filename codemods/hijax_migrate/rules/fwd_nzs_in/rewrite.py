"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import libcst as cst

from ...analysis.accum import code
from ...analysis.dispatch import QuickVisitor
from ...analysis.nodes import is_attribute, is_call
from ...analysis.shape import ClassShape, class_shape, is_static, positional
from ...tree.calls import may_use
from ..context import RuleTransformer
from ..named_calls import named_call
from ..plans import Plan, RewritePlans
from . import RULE, input_count, nzs_in_verdict


class FwdNzsIn(RewritePlans, RuleTransformer):
    rule = RULE

    def visit_Module(self, node: cst.Module) -> None:
        # The verdict on each class is triage's, read from ``ast``.
        self._ast = dict(self.prims.bridge.statements(cst.ClassDef))
        self._refused = self._refusals(node)
        super().visit_Module(node)
        self._in_fwd: list[bool] = []  # per enclosing function: is it a planned vjp_fwd?

    def _lacking(self) -> dict[cst.ClassDef, cst.FunctionDef]:
        """The primitives whose ``vjp_fwd`` the rule would give ``nzs_in``."""
        found = {}
        for cls, kind in self.prims.kinds.items():
            shape = class_shape(cls, self.prims.bridge) if kind.is_primitive else None
            fwd = shape.methods.get("vjp_fwd") if shape else None
            if fwd is not None and nzs_in_verdict(self._ast[cls]) and "nzs_in" not in _param_names(fwd):
                found[cls] = fwd
        return found

    def _refusals(self, module: cst.Module) -> dict[cst.ClassDef, tuple[cst.Attribute, str]]:
        """Classes whose ``vjp_fwd`` is reached other than by a ``super().vjp_fwd(...)``
        call in a ``vjp_fwd`` that gains ``nzs_in`` too (a ``self.vjp_fwd(x)`` in
        ``jvp``, ``f = self.vjp_fwd``): the access would miss ``nzs_in``, so the rule
        is left as it is, with the access named. A rule left makes the ``super()``
        calls in its own ``vjp_fwd`` such accesses in turn: repeated until none is new."""
        accesses = _Accesses()
        if self.prims.code is None or may_use(self.prims.code, "vjp_fwd"):  # else none to find
            module.visit(accesses)
        lacking, refused = self._lacking(), {}
        changed = True
        while changed:
            changed = False
            for node, stack, func, called in accesses.found:
                target = self._owner(node, stack, lacking)
                pass_on = (
                    called
                    and is_call(node.value, "super")
                    and stack
                    and (func is class_shape(stack[-1], self.prims.bridge).methods.get("vjp_fwd"))
                )
                if target is not None and not (pass_on and lacking.get(stack[-1]) is func):
                    refused[target] = (
                        node,
                        "is called here from a `vjp_fwd` left as written"
                        if pass_on
                        else "is used here outside `vjp_fwd`",
                    )
                    del lacking[target]
                    changed = True
        return {**refused, **self._called_by_name(lacking)}

    def _called_by_name(self, lacking: dict[cst.ClassDef, cst.FunctionDef]) -> dict[cst.ClassDef, tuple[None, str]]:
        """Classes whose ``vjp_fwd`` is called through the class's name in another file of the
        tree, or by a name anywhere (``named_calls``; this file's attribute accesses are
        ``_Accesses``', refused already): left as written."""
        found = {}
        for cls, fwd in lacking.items():
            where = named_call(self, self.prims.infos.get(cls), fwd, "vjp_fwd")
            if where is not None:
                found[cls] = (None, f"is used at {where}, outside this class's `vjp_fwd`")
        return found

    def _owner(self, node: cst.Attribute, stack: list, lacking: dict) -> cst.ClassDef | None:
        info = self._resolve(node.value, "vjp_fwd", stack)
        return next((cls for cls in lacking if self.prims.infos.get(cls) is info), None) if info else None

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        fwd = shape.methods.get("vjp_fwd")
        if fwd is None:
            return None
        lacks = nzs_in_verdict(self._ast[cls])
        if lacks is None:
            return self.skip(
                fwd,
                cls,
                f"`vjp_fwd` does not fit the primitive's {input_count(self._ast[cls])} "
                "input(s) with or without `nzs_in`; left alone: check its signature",
            )
        if not lacks:
            return None
        if "nzs_in" in _param_names(fwd):
            return self.skip(fwd, cls, "`vjp_fwd` lacks `nzs_in` but has a parameter named so; rename it by hand")
        if cls in self._refused:
            access, where = self._refused[cls]
            here = "here" if access is not None else "there"
            return self.skipped(
                self.prims.line(access if access is not None else fwd),
                cls,
                f"`{code(access) if access is not None else 'vjp_fwd'}` {where}, but `vjp_fwd` (line "
                f"{self.prims.line(fwd)}) lacks `nzs_in`: left as written; add `nzs_in` to "
                f"`vjp_fwd` and pass one {here} (a tuple of booleans, one per input)",
            )
        plan = Plan(fwd, cls, insert_params=[(0 if is_static(fwd) else 1, "nzs_in")])
        return self.done(plan, "added the `nzs_in` parameter to `vjp_fwd`")

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._in_fwd.append(node in self._plans)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        # ``super().vjp_fwd(...)`` in a planned rule passes ``nzs_in`` on; any
        # other access of a planned rule refused it (``_refusals``).
        if _calls_super_fwd(updated_node) and self._in_fwd and self._in_fwd[-1]:
            return updated_node.with_changes(args=[cst.Arg(cst.Name("nzs_in")), *updated_node.args])
        return updated_node

    def leave_FunctionDef(self, original_node, updated_node):
        self._in_fwd.pop()
        return super().leave_FunctionDef(original_node, updated_node)


def _param_names(func: cst.FunctionDef) -> set[str]:
    return {*positional(func), *(p.name.value for p in func.params.kwonly_params)}


class _Accesses(QuickVisitor):
    """Every ``<value>.vjp_fwd``: (node, classes around it, innermost function, called?)."""

    def __init__(self):
        self.found: list[tuple[cst.Attribute, list, cst.FunctionDef | None, bool]] = []
        self._classes, self._funcs, self._called = [], [None], set()

    def visit_ClassDef(self, node) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node) -> None:
        self._funcs.append(node)

    def leave_FunctionDef(self, node) -> None:
        self._funcs.pop()

    def visit_Call(self, node: cst.Call) -> None:
        self._called.add(node.func)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "vjp_fwd":
            self.found.append((node, list(self._classes), self._funcs[-1], node in self._called))


def _calls_super_fwd(call: cst.Call) -> bool:
    """``super().vjp_fwd(...)``."""
    return is_attribute(call.func, "vjp_fwd") and is_call(call.func.value, "super")
