"""Plan, then apply: the shared machinery of rules that rewrite methods.

Every primitive class is planned before the tree is transformed, so calls of
a renamed method are found wherever they stand in the file, and the rewrite
itself is a plain application of the plans.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..analysis.accum import add_params, insert_params
from ..analysis.chains import HIJAX_MODULES
from ..analysis.families import ancestors
from ..analysis.nodes import is_call, is_name
from ..analysis.scopes import ClassInfo
from ..analysis.shape import ClassShape, class_shape
from ..analysis.summary import dotted_name
from ..core.model import ERROR


@dataclass(eq=False)
class Plan:
    # a method, a rule bound in the class body (``vjp_bwd = f``), or a member of ``type(..., {"vjp_bwd": f})``
    func: cst.FunctionDef | cst.Assign | cst.DictElement
    cls: cst.ClassDef | cst.SimpleStatementLine  # the class statement, or the ``type(...)`` one
    new_name: str | None = None  # the method's new name
    new_params: list[str] = field(default_factory=list)  # appended positional params
    insert_params: list[tuple[int, str]] = field(default_factory=list)  # (index, name)
    new_star: str | None = None  # a *args parameter added
    returns: dict[cst.Return, list[cst.BaseSmallStatement]] = field(default_factory=dict)
    visits: list[cst.CSTNode] = field(default_factory=list)  # statements outside ``cls`` it edits too
    # comments kept from a rewritten return: (own lines before, end of line)
    comments: dict[cst.BaseSmallStatement, tuple[list[str], str | None]] = field(default_factory=dict)
    info: ClassInfo | None = None  # the class a ``type(...)`` makes (a class statement's is the map's)


def _rule_name(func: cst.FunctionDef | cst.Assign | cst.DictElement) -> str:
    if isinstance(func, cst.DictElement):
        return func.key.evaluated_value
    if isinstance(func, cst.Name):  # a target of another binding statement (``[vjp_bwd] = [f]``)
        return func.value
    if isinstance(func, cst.Assign):
        return next(t.target.value for t in func.targets if isinstance(t.target, cst.Name))
    return func.name.value


class RewritePlans:
    """Mixin for RuleTransformer subclasses; they implement ``plan_class``."""

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        raise NotImplementedError

    def extra_plans(self) -> list[Plan]:
        """Plans for classes that are no primitive themselves (mixins)."""
        return []

    def visit_Module(self, node: cst.Module) -> None:
        plans = [
            self.plan_class(cls, class_shape(cls, self.prims.bridge))
            for cls, kind in self.prims.kinds.items()
            if kind.is_primitive
        ] + self.extra_plans()
        self._plans = {plan.func: plan for plan in plans if plan is not None}
        self._returns = {ret: new for plan in self._plans.values() for ret, new in plan.returns.items()}
        self._comments = {small: c for plan in self._plans.values() for small, c in plan.comments.items()}
        # (class, old name) -> new name: a call is renamed when it resolves to the rule
        self._renames = {
            (self.plan_info(plan), _rule_name(plan.func)): plan.new_name
            for plan in self._plans.values()
            if plan.new_name and self.plan_info(plan) is not None
        }
        self._renamed_names = {name for _, name in self._renames}
        self._stack: list[cst.ClassDef] = []
        # Edits stand in the classes planned and the primitives, and a renamed
        # method's calls (those of a rule another file renames too) in any
        # statement that may hold ``.name``.
        names = self._renamed_names | self.OUTSIDE_NAMES
        calls = self.prims.holding(names) if names else []
        if calls is None:
            self.focus = None
        else:
            planned = {plan.cls for plan in self._plans.values()} | {
                node for plan in self._plans.values() for node in plan.visits
            }
            self.focus = planned | {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive} | {*calls}

    def plan_info(self, plan: Plan) -> ClassInfo | None:
        return plan.info or self.prims.infos.get(plan.cls)

    # -- what rules call while planning
    def rename(self, cls: cst.ClassDef, func: cst.FunctionDef, new_name: str) -> Plan:
        plan = Plan(func, cls, new_name=new_name)
        return self.done(plan, f"renamed `{func.name.value}` to `{new_name}`")

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign):
        plan = self._plans.get(original_node)
        if plan is None or not plan.new_name:
            return updated_node
        old = _rule_name(original_node)
        return updated_node.with_changes(
            targets=[
                t.with_changes(target=cst.Name(plan.new_name)) if is_name(t.target, old) else t
                for t in updated_node.targets
            ]
        )

    def skip(self, func: cst.FunctionDef, cls: cst.ClassDef, reason: str, severity: str = ERROR) -> None:
        self.skipped(self.prims.line(func), cls, reason, severity)
        return None

    def done(self, plan: Plan, action: str) -> Plan:
        self.changed(self.prims.line(plan.func), plan.info.qualname if plan.info else plan.cls, action)
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

    def leave_DictElement(self, original_node: cst.DictElement, updated_node: cst.DictElement):
        """A ``type(...)`` member renamed: its key, in its own quotes."""
        plan = self._plans.get(original_node)
        if plan is None or not plan.new_name:
            return updated_node
        key = updated_node.key
        renamed = f"{key.prefix}{key.quote}{plan.new_name}{key.quote}"
        return updated_node.with_changes(key=key.with_changes(value=renamed))

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
            line = line.with_changes(
                trailing_whitespace=cst.TrailingWhitespace(
                    whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(end)
                )
            )
        return line

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        if not any(small in self._returns for small in original_node.body):
            return updated_node
        body = [
            new for old, small in zip(original_node.body, updated_node.body) for new in self._returns.get(old, [small])
        ]
        return updated_node.with_changes(body=[s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for s in body])

    # names whose rule another file may rename (see ``renamed_elsewhere``)
    OUTSIDE_NAMES: frozenset[str] = frozenset()

    def renamed_elsewhere(self, info: ClassInfo, name: str, node: cst.Attribute) -> str | None:
        """The new name of ``info``'s rule ``name`` when its own file renames it."""
        return None

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        name = updated_node.attr.value
        if name not in self._renamed_names and name not in self.OUTSIDE_NAMES:
            return updated_node
        info = self._resolve(updated_node.value, name)
        new_name = self._renames.get((info, name))
        if new_name is None and info is not None and name in self.OUTSIDE_NAMES:
            new_name = self.renamed_elsewhere(info, name, original_node)
        if new_name is None and info is None and name in self.OUTSIDE_NAMES:
            new_name = self.reaches_none(updated_node.value, name, original_node)
        if info is None and name in self._renamed_names and self._of_unknown_class(updated_node.value):
            self.unresolved(original_node)
        return updated_node.with_changes(attr=cst.Name(new_name)) if new_name else updated_node

    def reaches_none(self, value: cst.BaseExpression, name: str, node: cst.Attribute) -> str | None:
        """The new name of a family access (``super().name``) no class of the tree defines."""
        return None

    def unresolved(self, node: cst.Attribute) -> None:
        """An access of a renamed name on an object whose class this file cannot tell."""

    def _of_unknown_class(self, value: cst.BaseExpression) -> bool:
        """Not ``self``/``cls``/``super()`` (their class is known), one class's
        name, nor a name imported from jax's hijax modules (``VJPHiPrimitive``)."""
        if is_call(value, "super") or is_name(value, "self", "cls"):
            return False
        here = self.prims.infos.get(self._stack[-1]) if self._stack else None
        scope = here.scope if here is not None else self.prims.module_scope
        dotted = dotted_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
        if scope is None or dotted is None:
            return True
        head = dotted.partition(".")[0]
        bindings = scope.lookup(head)
        if bindings and all(b[0] == "import" and b[1].startswith(HIJAX_MODULES) for b in bindings):
            return False
        return not isinstance(value, cst.Name) or len(self.project.classes_of_name(scope, dotted)) != 1

    def _resolve(self, value: cst.BaseExpression, name: str, stack: list | None = None) -> ClassInfo | None:
        """The class whose ``name`` an access on ``value`` reaches: ``self.x``/``cls.x``
        and ``super().x`` in a class, or ``Cls.x`` for a class this file can see;
        ``stack``: the classes around the access (default: those being visited)."""
        stack = self._stack if stack is None else stack
        here = self.prims.infos.get(stack[-1]) if stack else None
        is_super = is_call(value, "super")
        if here is not None and (is_super or is_name(value, "self", "cls")):
            order = ancestors(self.project, here) if is_super else [here, *ancestors(self.project, here)]
        elif isinstance(value, cst.Name):
            scope = here.scope if here is not None else self.prims.module_scope
            found = self.project.classes_of_name(scope, value.value) if scope is not None else []
            if len(found) != 1:
                return None
            order = [found[0], *ancestors(self.project, found[0])]
        else:
            return None  # another object's method (``self.quantizer.vjp_bwd``): another protocol
        return next((cls for cls in order if cls.body is not None and name in cls.body.bindings), None)
