"""HJX001: a ``vjp_bwd`` that returns cotangents instead of accumulating them.

The transformer plans each primitive's own rule here, and owns two planners
it calls: ``FamilyPlanner`` (``families.py``: mixins, bound rules, conflicts
in the family, calls that follow another file's rename) and
``FactoryPlanner`` (``factories.py``: classes made by ``type(...)``). Its one
base besides ``RuleTransformer`` is ``AccumulatorWrites`` (``rules/writes.py``,
shared with HJX005): the accumulator form, and the plans' application.
"""

from __future__ import annotations

import libcst as cst

from ...analysis import class_body
from ...analysis.accum import code
from ...analysis.accum_uses import Params
from ...analysis.ast_summary import rule_form
from ...analysis.families import ancestors, first_definer
from ...analysis.namespace import IMPORT
from ...analysis.paths import facts_of
from ...analysis.primitives import PrimitiveMap
from ...analysis.probes import value_rule
from ...analysis.project import Project
from ...analysis.return_values import tuple_returns
from ...analysis.returns import returns_values
from ...analysis.scopes import ClassInfo
from ...analysis.shape import ClassShape, class_shape, conditional_defs
from ...analysis.summary import CLASSIC, Kind
from ..context import NOTE, FileContext, FileReport, Options, RuleTransformer
from ..plans import Plan
from ..return_actions import dropped_or_not
from ..writes import AccumulatorWrites
from . import RULE
from .blocks import renamed_in_blocks
from .factories import FactoryPlanner
from .families import NEW, NOT_FOLLOWED, FamilyPlanner, inherits_retval
from .half_ported import ALIAS, BOUND, BY_NAME, HALF_PORTED, HIDDEN, NOTHING, OLD_FORM, decide_half_ported, head
from .named import NamedPlanner
from .planning import RuleInputs
from .targets import DESCRIBED, Bound, Refused, bound_by_target, bound_once
from .version_arms import switched_right

ARMS = (
    "which class it is is decided when the code runs: left as written; make its every arm a hijax "
    "primitive of one kind, or port the rule by hand (jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on)"
)
RETURNS_NONE = "the call now gets None back: the rule writes its accumulators itself"


def batches_through_vmapof(project, info) -> bool:
    """Does ``info`` batch through an inherited or own ``batch_dim_rule`` (jax's default
    ``batch`` wraps the primitive in ``VmapOf``), not a ``batch`` of the tree's own?"""
    order = [info, *ancestors(project, info)]
    keys = [c.key for c in order]
    rule, batch = first_definer(order, "batch_dim_rule"), first_definer(order, "batch")
    return rule is not None and (batch is None or keys.index(rule.key) < keys.index(batch.key))


def tuple_results(plan: Plan | None, returns_of, bridge) -> Plan | None:
    """A renamed rule returns tuples: jax checks its result against one, and a list fails.
    ``returns_of``: a function's own returns (``RuleTransformer.returns_of``); ``bridge``: the tree's."""
    if plan is not None and plan.new_name == "vjp_bwd_retval" and isinstance(plan.func, cst.FunctionDef):
        plan.returns.update(
            (old, [new]) for old, new in tuple_returns(bridge, plan.func, returns_of(plan.func)).items()
        )
    return plan


class BwdReturnsCotangents(AccumulatorWrites, RuleTransformer):
    rule = RULE
    OUTSIDE_NAMES = frozenset({"vjp_bwd"})  # another file may rename the rule a call reaches

    def __init__(
        self, context: FileContext, prims: PrimitiveMap, options: Options, report: FileReport, project: Project
    ):
        super().__init__(context, prims, options, report, project)
        inputs = RuleInputs(prims, project, options, report, context.decider)
        self.families = FamilyPlanner(inputs, self)
        self.factories = FactoryPlanner(inputs, self, self.families)
        self.named = NamedPlanner(inputs, self, self.families)  # references by name that follow a rename
        self._literals: set[cst.SimpleString] = set()
        self._other_arms: list[Plan] = []  # the arms of an ``if`` after the first (``in_branches``)

    # -- the hooks of ``RewritePlans.leave_Attribute``, answered by the family planner
    def renamed_elsewhere(self, info: ClassInfo, name: str, node: cst.Attribute) -> str | None:
        return self.families.renamed_elsewhere(info, node, self._around())

    def reaches_none(self, value: cst.BaseExpression, name: str, node: cst.Attribute) -> str | None:
        return self.families.reaches_none(value, node, self._around())

    def unresolved(self, node: cst.Attribute) -> None:
        renamed = [self.plan_info(plan) for plan in self._plans.values() if plan.new_name == NEW]
        self.families.unresolved(node, renamed)

    def _around(self) -> cst.ClassDef | None:
        """The class the visit is in."""
        return self._stack[-1] if self._stack else None

    def follows_by_name(self, named) -> bool:
        return self.named.follows(named)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        if self.named.followed():
            renamed = {self.plan_info(p).key for p in self._plans.values() if p.new_name == NEW and self.plan_info(p)}
            self._literals = self.named.literals(renamed)
            if self.focus is not None:  # the blocks holding them are visited too
                self.focus |= {self._block_of(literal) for literal in self._literals}
        for cls, kind in self.prims.kinds.items():
            self._target_on_unknown_base(cls, kind)
            func = class_shape(cls, self.prims.bridge).methods.get("vjp_bwd") if kind is Kind.EXTERNAL else None
            info = self.prims.infos.get(cls) if kind is Kind.EXTERNAL and self.project is not None else None
            base = self.project.undecided_base(info) if info is not None else None
            rule = value_rule(cls, self.prims.bridge) if base else None
            if rule is not None and not switched_right(self, cls):
                self.skip(rule, cls, f"`vjp_bwd` returns cotangents and its base is {base}: {ARMS}")
            elif func is not None and returns_values(self.prims.bridge.ast_of(func)):
                self.skip(
                    func,
                    cls,
                    "a base class comes from outside the tree and cannot be decided; "
                    "left alone (pass --base MODULE.CLASS if it is a hijax primitive)",
                    NOTE,
                )

    def _target_on_unknown_base(self, cls: cst.ClassDef, kind: Kind) -> None:
        """``vjp_bwd`` bound by a target (``targets``) in a class that may be a primitive (a base
        from outside the tree, or one bound when the code runs): these forms are this rule's to
        decide (``Rule.binds``), and it cannot tell whether the class needs the rename: an error."""
        info = self.prims.infos.get(cls)
        if kind.is_primitive or info is None or self.project is None:
            return
        if kind is not Kind.EXTERNAL and self.project.runtime_base(info) is None:
            return
        found = bound_by_target(cls)
        if found is not None:
            node = found.target if isinstance(found, Bound) else found.node
            self.skip(
                node,
                cls,
                f"`vjp_bwd` is bound by {DESCRIBED[found.form]}, and whether the class is a hijax primitive "
                "is decided outside the tree or when the code runs: left as written; if it is one, rename "
                "the target `vjp_bwd_retval` by hand (right under either base where it binds a value rule)",
            )

    def _block_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The innermost compound statement holding ``node``, or its statement of the module."""
        parents = self.parents()
        while parents.get(node) is not None and not isinstance(parents.get(node), cst.Module):
            node = parents.get(node)
            if isinstance(node, cst.BaseCompoundStatement):
                break
        return node

    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString):
        """A reference by name that follows the rename: its string, in its own quotes."""
        if original_node not in self._literals:
            return updated_node
        return updated_node.with_changes(value=f"{updated_node.prefix}{updated_node.quote}{NEW}{updated_node.quote}")

    def extra_plans(self) -> list[Plan]:
        # family hook: value rules in plain mixins; the other arms of rules defined under ``if``;
        # rules placed by ``type(...)``
        return [
            tuple_results(plan, self.returns_of, self.prims.bridge)
            for plan in self.families.mixin_plans() + self._other_arms
        ] + self.factories.factory_plans()

    def in_branches(self, cls: cst.ClassDef, first: cst.FunctionDef) -> Plan | None:
        """``vjp_bwd`` defined in the arms of an ``if`` in the class body: renamed in
        each alike where each is a value rule (whichever runs, the class is migrated)."""
        if switched_right(self, cls):  # already switches on jax's version, and right at the target
            return None
        stmt, shape = self.prims.bridge.ast_of(cls), class_shape(cls, self.prims.bridge)
        defs = class_body.branch_defs(stmt, "vjp_bwd")
        if (
            not defs
            or any(rule_form(f) != CLASSIC or f.decorator_list for f in defs)
            or "vjp_bwd_retval" in (*shape.methods, *shape.attributes, *class_body.conditional_defs(stmt))
        ):  # not each arm of an ``if``: other blocks, or a switch with ``vjp_bwd_retval``
            defs = renamed_in_blocks(stmt) if not shape.has_sres else None
        if defs is None:
            return self.skip(
                first,
                cls,
                "`vjp_bwd` is defined inside a block of the class body (if, try, "
                "for...), not each arm of an `if` a plain value rule: which one runs is decided "
                "when the code runs; port each by hand",
            )
        named = self.by_name(cls)
        if named is not None:
            return self.skip(first, cls, f"`vjp_bwd` is reached {named}: {NOT_FOLLOWED}")
        info = self.prims.infos.get(cls)
        conflict = self.families.conflict(info) if info is not None else None
        if conflict:
            return self.skip(
                first,
                cls,
                f"`vjp_bwd` is defined in the arms of an `if`, and a rename would "
                f"define both rules: {conflict}; port each by hand",
            )
        if self.options.strategy == "accum":
            self.skip(
                first,
                cls,
                "renamed to `vjp_bwd_retval` in each arm of the `if`, not given accumulators "
                "(--strategy accum): one form for every arm",
                NOTE,
            )
        defs = [self.prims.bridge.cst_of(func) for func in defs]
        plans = [self.families.renames(self.rename(cls, func, "vjp_bwd_retval")) for func in defs]
        self._other_arms.extend(plans[1:])
        return plans[0]

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        return tuple_results(self._plan_class(cls, shape), self.returns_of, self.prims.bridge)

    def _plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("vjp_bwd")
        bridge = self.prims.bridge
        found = head(self.sight(), bridge.ast_of(cls), self.prims.infos.get(cls), self.follows_by_name)
        if found.kind == HIDDEN:
            hidden = conditional_defs(cls, bridge).get("vjp_bwd")
            if func is None:
                return self.in_branches(cls, hidden)
            return self.skip(
                hidden,
                cls,
                "`vjp_bwd` is defined inside a block of the class body (if, try, "
                "for...): which one runs is decided when the code runs; port each by hand",
            )
        if found.kind == BOUND:
            target = bound_by_target(cls)
            if target is not None:  # ``(vjp_bwd := f)``, ``[vjp_bwd] = [f]``, ``for vjp_bwd in (f,):``...
                return self.plan_target(cls, shape, target)
            return self.families.plan_bound(cls, shape)  # family hook: a rule bound in the body (``vjp_bwd = f``)
        if found.kind == NOTHING:
            return None
        if found.kind == ALIAS:
            return self.skip(
                func,
                cls,
                f"`vjp_bwd` is named in the class body (line {self.prims.file_line(found.alias.lineno)}): "
                "a rename would leave that name unbound, and accumulators change its calls; "
                "port both by hand",
            )
        if found.kind == BY_NAME:
            return self.skip(func, cls, f"`vjp_bwd` is reached {found.named}: {NOT_FOLLOWED}")
        if found.kind == OLD_FORM:
            # jax 0.8.0's ``vjp_bwd(self, res, *args)``, args the output cotangent: no ``g`` for the
            # accumulator form to follow, so a value rule; ``vjp_bwd_retval(res, g)`` fills ``*args``
            return self.families.rename_in_family(cls, shape, func)
        if found.kind == HALF_PORTED:
            return self.half_ported(cls, shape, func, found.params)
        if "vjp_bwd_retval" in shape.methods or "vjp_bwd_retval" in shape.attributes:
            return self.skip(func, cls, "defines both `vjp_bwd` and `vjp_bwd_retval`; left as written")
        if shape.has_sres:
            uses = self.reaching(cls, func)
            if uses:
                return self.skip(
                    func,
                    cls,
                    "structured residuals need the accumulator form, and `.vjp_bwd` at "
                    f"{uses[0].where} may call this rule, which that would break; port both by hand",
                )
            return self.to_accumulators(cls, shape, func, "structured residuals need the accumulator form")
        if self.options.strategy == "accum":
            return self.accum_strategy(cls, shape, func)
        return self.families.rename_in_family(cls, shape, func)  # family hook: mixins, duplicates, out of step

    def plan_target(self, cls: cst.ClassDef, shape: ClassShape, found: Bound | Refused) -> Plan | None:
        """``vjp_bwd`` bound by a target of another statement (``targets``): its name renamed
        where the value is a function of the module bound once, returning cotangents."""
        why = found.why if isinstance(found, Refused) else None
        if why is None and shape.has_sres:
            why = "structured residuals need the accumulator form, which a bound function cannot take"
        if why is None and found.form == IMPORT:  # ``from m import f as vjp_bwd``: ``f`` read in ``m``
            return self.families.plan_imported(cls, found)
        code = self.prims.code if self.prims.code is not None else self.prims.wrapper.module.code
        if why is None and not (isinstance(found.value, cst.Name) and bound_once(code, found.value.value)):
            why = "its value is no function bound once in the module"
        if why is not None:
            return self.skip(
                found.node if isinstance(found, Refused) else found.target,
                cls,
                f"`vjp_bwd` is bound by {DESCRIBED[found.form]} whose value cannot be proven to be a "
                f"value rule ({why}), so a rename is not proven right: port it by hand",
            )
        return self.families.plan_binding(cls, found.target, found.value)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        """A target of ``targets.bound_by_target`` renamed."""
        plan = self._plans.get(original_node)
        return updated_node.with_changes(value=plan.new_name) if plan is not None and plan.new_name else updated_node

    def accum_strategy(self, cls, shape, func) -> Plan | None:
        """``--strategy accum``: the accumulator form, unless something needs the value
        rule (``_value_form_needed``): it is then renamed, and the user told why."""
        why = self._value_form_needed(cls, func)
        if why is None:
            return self.to_accumulators(cls, shape, func, "--strategy accum")
        if sum(isinstance(s, cst.FunctionDef) and s.name.value == "vjp_bwd" for s in cls.body.body) > 1:
            return self.skip(  # a rename would bring the earlier definition back to life
                func,
                cls,
                f"`vjp_bwd` is defined twice, and the value rule is needed (--strategy accum: {why}): "
                "renaming the last would make the earlier one the rule; port by hand",
            )
        self.skip(func, cls, f"renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): {why}", NOTE)
        plan = self.done(
            Plan(func, cls, new_name="vjp_bwd_retval"),
            f"renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators (--strategy accum): {why}",
        )
        return self.families.renames(plan)

    def _value_form_needed(self, cls, func) -> str | None:
        info = self.prims.infos.get(cls)
        named = self.named.reached_by(info) if info is not None else None
        if named is not None:
            return f"it is reached by name at {named.where} (`{named.ref.form}`), which is renamed with it"
        if info is not None and (
            inherits_retval(self.project, info, above=True) or self.families.bound_renamed_above(info)
        ):
            return "a class above it defines `vjp_bwd_retval`, or binds a value rule it renames, which it overrides"
        if func.decorators:
            return f"`@{code(func.decorators[0].decorator)}` wraps it, and may work on the cotangents it returns"
        mixed = facts_of(self.prims.bridge.ast_of(func), {}, 0).mixed
        if mixed:
            ret, where = next(iter(mixed.items()))
            return dropped_or_not(where, ret, self.rule_line, fix="")
        # (at 0.12, where batch_dim_rule is gone, the rename costs nothing: rules never read the target)
        if "batch_dim_rule" in conditional_defs(cls, self.prims.bridge) or (
            info is not None and batches_through_vmapof(self.project, info)
        ):
            return (
                "it is batched through `batch_dim_rule`, whose `VmapOf` calls the value rule "
                "`vjp_bwd_retval` (jax up to 0.11.2)"
            )
        blocker = self.family_blocker(cls, func)
        if blocker is None:
            return None
        member, use = blocker
        whose = "this rule" if member in (None, info) else f"the value rule of {member.qualname}"
        how = "and is renamed with it" if use.resolved else "on an object whose class cannot be told"
        return f"`.vjp_bwd` at {use.where} may call {whose}, {how}"

    def half_ported(self, cls, shape, func, params: Params) -> Plan | None:
        """Accumulators are there, and values still returned: the decision (``half_ported``,
        from ``ast``) said, or its writes made."""
        bridge = self.prims.bridge
        info = self.prims.infos.get(cls)
        found = decide_half_ported(self.sight(), bridge.ast_of(cls), info, bridge.ast_of(func), params)
        if found.decided is None:
            return self.skip(func, cls, found.refusal)
        action = "returned cotangents became accumulator writes, or were dropped where the rule writes them already"
        plan = self.apply_decided(Plan(func, cls), shape, found.accs, action, found.facts, found.decided)
        return self.note_unknown(plan, found.unknown, "vjp_bwd", RETURNS_NONE)
