"""Plan, then apply: the shared machinery of rules that rewrite methods.

Every primitive class is planned before the tree is transformed, so calls of
a renamed method are found wherever they stand in the file, and the rewrite
itself is a plain application of the plans.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..accum import add_params, insert_params
from ..model import ERROR
from ..shape import ClassShape, class_shape


@dataclass(eq=False)
class Plan:
    func: cst.FunctionDef
    cls: cst.ClassDef
    new_name: str | None = None  # the method's new name
    new_params: list[str] = field(default_factory=list)  # appended positional params
    insert_params: list[tuple[int, str]] = field(default_factory=list)  # (index, name)
    new_star: str | None = None  # a *args parameter added
    returns: dict[cst.Return, list[cst.BaseSmallStatement]] = field(default_factory=dict)
    # comments kept from a rewritten return: (own lines before, end of line)
    comments: dict[cst.BaseSmallStatement, tuple[list[str], str | None]] = field(default_factory=dict)


def _class_names(plans: list[Plan]) -> set[str]:
    return {plan.cls.name.value for plan in plans if plan.new_name}


class RewritePlans:
    """Mixin for RuleTransformer subclasses; they implement ``plan_class``."""

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        raise NotImplementedError

    def visit_Module(self, node: cst.Module) -> None:
        plans = [self.plan_class(cls, class_shape(cls))
                 for cls, kind in self.prims.kinds.items() if kind.is_primitive]
        self._plans = {plan.func: plan for plan in plans if plan is not None}
        self._returns = {ret: new for plan in self._plans.values() for ret, new in plan.returns.items()}
        self._comments = {small: c for plan in self._plans.values() for small, c in plan.comments.items()}
        self._renames = {plan.func.name.value: plan.new_name for plan in self._plans.values() if plan.new_name}
        self._renamed_classes = _class_names(list(self._plans.values()))
        self._stack: list[cst.ClassDef] = []
        # A renamed method's calls may stand anywhere; other edits, in the primitives.
        self.focus = None if self._renames else {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive}

    # -- what rules call while planning
    def rename(self, cls: cst.ClassDef, func: cst.FunctionDef, new_name: str) -> Plan:
        plan = Plan(func, cls, new_name=new_name)
        return self.done(plan, f"renamed `{func.name.value}` to `{new_name}`")

    def skip(self, func: cst.FunctionDef, cls: cst.ClassDef, reason: str, severity: str = ERROR) -> None:
        self.skipped(self.prims.line(func), cls, reason, severity)
        return None

    def done(self, plan: Plan, action: str) -> Plan:
        self.changed(self.prims.line(plan.func), plan.cls, action)
        return plan

    # -- applying the plans
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._stack.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self._stack.pop()
        return updated_node

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef):
        plan = self._plans.get(original_node)
        if plan is None:
            return updated_node
        if plan.new_name:
            updated_node = updated_node.with_changes(name=cst.Name(plan.new_name))
        if plan.insert_params:
            updated_node = insert_params(updated_node, plan.insert_params)
        if plan.new_star:
            star = cst.Param(cst.Name(plan.new_star))
            updated_node = updated_node.with_changes(params=updated_node.params.with_changes(star_arg=star))
        return add_params(updated_node, plan.new_params) if plan.new_params else updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if not any(small in self._returns for small in original_node.body):
            return updated_node
        keep, new = [], []
        for old, small in zip(original_node.body, updated_node.body):
            (new if new or old in self._returns else keep).extend(self._returns.get(old, [small]))
        lines = [self._line(small) for small in new]
        lines[-1] = lines[-1].with_changes(trailing_whitespace=updated_node.trailing_whitespace)
        if keep:
            keep[-1] = keep[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            lines.insert(0, updated_node.with_changes(body=keep, trailing_whitespace=cst.TrailingWhitespace()))
        lines[0] = lines[0].with_changes(leading_lines=[*updated_node.leading_lines, *lines[0].leading_lines])
        return cst.FlattenSentinel(lines)

    def _line(self, small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
        own, end = self._comments.get(small, ((), None))
        line = cst.SimpleStatementLine([small], leading_lines=[cst.EmptyLine(comment=cst.Comment(c)) for c in own])
        if end:
            line = line.with_changes(trailing_whitespace=cst.TrailingWhitespace(
                whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(end)))
        return line

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        if not any(small in self._returns for small in original_node.body):
            return updated_node
        body = [new for old, small in zip(original_node.body, updated_node.body)
                for new in self._returns.get(old, [small])]
        return updated_node.with_changes(body=[s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for s in body])

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        new_name = self._renames.get(updated_node.attr.value)
        if new_name and self._calls_renamed(updated_node.value):
            return updated_node.with_changes(attr=cst.Name(new_name))
        return updated_node

    def _calls_renamed(self, value: cst.BaseExpression) -> bool:
        """``self.x``/``super().x`` in a renamed class or its subclass, ``Cls.x``."""
        if isinstance(value, cst.Name) and value.value in self._renamed_classes:
            return True
        is_self = isinstance(value, cst.Name) and value.value in ("self", "cls")
        is_super = isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "super"
        if not (is_self or is_super) or not self._stack:
            return False
        cls = self._stack[-1]
        bases = {arg.value.value for arg in cls.bases if isinstance(arg.value, cst.Name)}
        return cls.name.value in self._renamed_classes or bool(bases & self._renamed_classes)
