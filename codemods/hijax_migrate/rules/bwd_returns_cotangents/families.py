"""HJX001 by class family: where a value ``vjp_bwd`` is renamed, and where not.

- A rename that would make a family member define both rules (an
  accumulator ``vjp_bwd`` above or below in the family) takes the
  accumulator form instead, or is refused.
- A class body binding ``vjp_bwd = f`` (a module function, a lambda) becomes
  ``vjp_bwd_retval = f`` when ``f`` returns cotangents.
- A value ``vjp_bwd`` in a plain mixin is renamed where it is defined, when
  every class in the tree that inherits it is a primitive.
- Of two ``def vjp_bwd`` in one body Python keeps the last: it is migrated
  in the accumulator form (a rename would bring the earlier one back to
  life), and the earlier one is named in a warning.

The transformer owns a ``FamilyPlanner`` and calls it, planning and where
a call of ``vjp_bwd`` may follow a rename; what it reads is a ``RuleInputs``,
what it asks of the transformer its ``Steps`` (``planning.py``).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.ast_summary import rule_form as ast_rule_form
from ...analysis.cst_blocks import own_statements
from ...analysis.families import Classes, ancestors, first_definer, form, inheritors, rename_conflict
from ...analysis.function_kinds import RUNS_NONE
from ...analysis.nodes import findall, is_call, is_name, sole_target
from ...analysis.return_values import tuple_returns
from ...analysis.returns import listed, own_returns
from ...analysis.shape import class_shape, is_static, last_def, positional
from ...analysis.summary import CLASSIC, ClassInfo, factory_member
from ..context import NOTE
from ..plans import Plan
from .bindings import bound_form, bound_function, bound_not_run, imported_rule, visible_form
from .planning import RuleInputs, Steps
from .targets import bound_by_target

RULE, NEW = "vjp_bwd", "vjp_bwd_retval"
NOT_FOLLOWED = "neither a rename nor accumulators would follow it there; port both by hand"
_HIDDEN = ", whose form is not visible: check it by hand"
NOT_RUN = (
    f": {RUNS_NONE}, so it writes no accumulator and returns no cotangents under any jax: write it as a plain `def`"
)


def inherits_retval(project, info: ClassInfo, above: bool) -> bool:
    """Does ``info``'s order (``above``: its ancestors' only, as ``super()`` walks it)
    find ``vjp_bwd_retval`` in the tree, and no ``vjp_bwd`` before it?"""
    order = ancestors(project, info) if above else [info, *ancestors(project, info)]
    keys = [c.key for c in order]
    bwd, retval = first_definer(order, RULE), first_definer(order, NEW)
    return retval is not None and (bwd is None or keys.index(retval.key) < keys.index(bwd.key))


class FamilyPlanner:
    """HJX001's family decisions for one file."""

    def __init__(self, inputs: RuleInputs, steps: Steps):
        self.prims, self.project, self.options = inputs.prims, inputs.project, inputs.options
        self.report, self.decider = inputs.report, inputs.decider
        self.steps = steps
        self._classes: Classes | None = None  # the file's classes, their family ties worked out once

    # -- calls of ``vjp_bwd`` (``RewritePlans.leave_Attribute``'s hooks; ``cls``: the class around the call)
    def renamed_elsewhere(self, info: ClassInfo, node: cst.Attribute, cls: cst.ClassDef | None) -> str | None:
        """A call of a rule that another file's class renames (``self.vjp_bwd`` in its subclass)."""
        if any(info is mine for mine in self.here()) or not info.module:
            return None
        if info.qualname not in self.decider.renamed_rules(self.project, self.options, info.module):
            return None  # that file keeps or converts it: the call stays as it is
        self.steps.changed(
            self.prims.line(node),
            cls,
            f"call of `{RULE}` renamed with {info.qualname}'s rule ({info.module or 'another file'})",
        )
        return NEW

    def reaches_none(self, value: cst.BaseExpression, node: cst.Attribute, cls: cst.ClassDef | None) -> str | None:
        """``super().vjp_bwd(res, g)`` in a primitive whose family above defines
        ``vjp_bwd_retval`` and no ``vjp_bwd`` (half-migrated by an earlier run): it
        meant the value rule, and reaches jax's accumulator one with no accumulators."""
        here = self.prims.infos.get(cls) if cls is not None else None
        # ``super()``, or ``super(C, self)`` naming the class it stands in
        above = is_call(value, "super") and (
            not value.args or len(value.args) == 2 and cls is not None and is_name(value.args[0].value, cls.name.value)
        )
        if here is None or not self.prims.kinds[cls].is_primitive or not (above or is_name(value, "self", "cls")):
            return None
        if not inherits_retval(self.project, here, above):
            return None
        call = self.steps.parents().get(node)
        if not (
            isinstance(call, cst.Call)
            and call.func is node
            and len(call.args) == 2
            and all(not arg.star and arg.keyword is None for arg in call.args)
        ):
            return None
        self.steps.changed(
            self.prims.line(node),
            cls,
            f"call of `{RULE}` renamed: {here.qualname}'s family above "
            f"defines `{NEW}` and no `{RULE}`, so the call meant the value rule",
        )
        return NEW

    def unresolved(self, node: cst.Attribute, renamed: list[ClassInfo | None]) -> None:
        """``op.vjp_bwd(res, g)``: left as written, and said, as it may be one of the
        classes whose rule is renamed (``renamed``), and would now reach jax's own."""
        if node.attr.value != RULE:
            return
        mine = sorted({info.qualname for info in renamed if info is not None})
        code = cst.Module([]).code_for_node(node)
        self.steps.skipped(
            self.prims.line(node),
            None,
            f"`{code}` is left as written: on an instance of "
            f"{' or '.join(f'`{name}`' for name in mine)} it now reaches jax's accumulator "
            f"`{RULE}`, not the value rule (renamed `{NEW}`): write `.{NEW}` there if so",
            NOTE,
        )

    # -- what a rename rests on
    def renames(self, plan: Plan) -> Plan:
        """``plan``, just reported done, renames its class's ``vjp_bwd``: the class (as
        the change names it) goes in the report's ``renamed``, what other files decide on."""
        self.report.renamed.add(self.report.changes[-1].cls)
        return plan

    def conflict(self, info: ClassInfo) -> str | None:
        """``families.rename_conflict``, but a rule bound above (``vjp_bwd = f``, of no form
        a summary knows) that its own migration renames is no accumulator rule."""
        if self.bound_renamed_above(info):
            return None
        return rename_conflict(self.project, info, self.here())

    def bound_renamed_above(self, info: ClassInfo) -> bool:
        """Is the rule ``info`` inherits a binding (``vjp_bwd = f``) its class's migration renames?"""
        above = first_definer(ancestors(self.project, info), RULE)
        return above is not None and form(above) == "unknown" and self._bound_renamed(above)

    def _bound_renamed(self, info: ClassInfo) -> bool:
        here = next((cls for cls, mine in self.prims.infos.items() if mine.key == info.key), None)
        if here is None:
            return info.qualname in self.decider.renamed_rules(self.project, self.options, info.module)
        if bound_by_target(here) is not None:  # ``(vjp_bwd := f)``...: planned already (a base comes first)
            return info.qualname in self.report.renamed
        assign = class_shape(here, self.prims.bridge).attributes.get(RULE)
        return (
            is_name(sole_target(assign), RULE)
            and bound_form(self.module, assign.value, self.prims.bridge, here) == CLASSIC
        )

    def here(self) -> Classes:
        """The file's classes, for the whole rule (their family ties are worked out once)."""
        if self._classes is None:
            self._classes = Classes([*self.prims.infos.values(), *self.prims.factories.values()])
        return self._classes

    @property
    def module(self) -> cst.Module:
        return self.prims.wrapper.module

    # -- plans
    def rename_in_family(self, cls: cst.ClassDef, shape, func: cst.FunctionDef) -> Plan | None:
        steps = self.steps
        if is_static(func) and len(positional(func)) != 2:  # (res, g): anything else is not a value rule
            return steps.skip(
                func,
                cls,
                f"a static `{RULE}` with {len(positional(func))} parameters: "
                "whether it takes accumulators cannot be told; port by hand",
            )
        earlier = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == RULE][:-1]
        for dead in earlier:
            steps.skip(
                dead,
                cls,
                f"`{RULE}` is defined again below: Python keeps the last one, "
                "which is migrated; this one is left as written (remove it)",
            )
        if earlier:
            return steps.to_accumulators(cls, shape, func, f"`{RULE}` is defined twice")
        info = self.prims.infos.get(cls)
        conflict = self.conflict(info) if info is not None else None
        if conflict:
            return steps.to_accumulators(cls, shape, func, f"a rename would define both rules: {conflict}")
        return self.renames(steps.rename(cls, func, NEW))

    def plan_bound(self, cls: cst.ClassDef, shape) -> Plan | None:
        """``vjp_bwd = f`` or ``vjp_bwd = lambda ...`` in the class body."""
        assign = shape.attributes.get(RULE)
        if not is_name(sole_target(assign), RULE):
            return None
        return self.plan_binding(cls, assign, assign.value)

    def plan_imported(self, cls: cst.ClassDef, found) -> Plan | None:
        """``from m import f as vjp_bwd`` in the body (``found``): the ``as`` name renamed where
        ``f`` is a value rule of the tree's module ``m`` returning tuples (the same function,
        bound under the target's name, as ``vjp_bwd = f`` renamed)."""
        func, why = imported_rule(self.project, self.prims.infos.get(cls))
        if func is not None and any(listed(ret.value, func) for ret in own_returns(func)):
            why = f"`{func.name}` returns a list, which jax refuses as a rule's result"
        if func is None or why:
            return self.steps.skip(
                found.target,
                cls,
                f"`{RULE}` is bound by an import whose function cannot be proven a value rule ({why}), "
                "so a rename is not proven right: port it by hand",
            )
        return self.plan_binding(cls, found.target, found.value, func)

    def plan_binding(
        self, cls: cst.ClassDef, assign: cst.Assign | cst.Name, value: cst.BaseExpression, imported=None
    ) -> Plan | None:
        """``assign`` binds ``vjp_bwd`` to ``value`` (a whole ``vjp_bwd = f``, or the target
        ``targets.bound_by_target`` found): renamed where ``value`` is a value rule (``imported``:
        the function of another module it names, read there)."""
        broken = bound_not_run(self.module, value, self.prims.bridge, cls) if imported is None else None
        if broken is not None:
            return self.steps.skip(assign, cls, f"`{RULE}` is bound to {broken}{NOT_RUN}")
        bridge = self.prims.bridge
        verdict = ast_rule_form(imported) if imported is not None else visible_form(self.module, value, bridge, cls)
        if verdict == "accumulator":
            return None
        if verdict != CLASSIC:
            return self.steps.skip(assign, cls, f"`{RULE}` is bound to {verdict}{_HIDDEN}")
        info = self.prims.infos.get(cls)
        conflict = self.conflict(info) if info is not None else None
        if conflict:
            return self.steps.skip(
                assign,
                cls,
                f"`{RULE}` is bound to a value-returning function, but renaming "
                f"it would define both rules ({conflict}): port by hand",
            )
        named = self.steps.by_name(cls)
        if named is not None:
            return self.steps.skip(assign, cls, f"`{RULE}` is reached {named}: {NOT_FOLLOWED}")
        plan = Plan(assign, cls, new_name=NEW)
        # the body's own function, or the module's (an imported one returns tuples: read above)
        if imported is None and not self.bound_tuples(plan, bound_function(self.module, value, cls)[0]):
            return None
        if self.options.strategy == "accum":
            self.steps.skip(
                assign,
                cls,
                f"the bound `{RULE}` renamed to `{NEW}`, not given accumulators "
                "(--strategy accum): the function it binds is not the class's to change",
                NOTE,
            )
        return self.renames(self.steps.done(plan, f"renamed the bound `{RULE}` to `{NEW}`"))

    def bound_tuples(self, plan: Plan, func: cst.FunctionDef | None) -> bool:
        """A bound function's list results become tuples (jax refuses a list), where the
        module names it only in class bodies' bindings; else the class is refused."""
        returns = tuple_returns(self.prims.bridge, func, self.steps.returns_of(func)) if func is not None else {}
        if not returns:
            return True
        name = func.name.value
        named = len(findall(self.module, cst.Name, lambda n: n.value == name)) - 1
        bindings = sum(
            len(findall(s, cst.Name, lambda n: n.value == name))
            for c in self.prims.kinds
            for s in own_statements(c)
            if is_name(sole_target(s), RULE, NEW)
        )
        bindings += sum(
            is_name(getattr(factory_member(stmt, key, self.prims.bridge), "value", None), name)
            for stmt in self.prims.factories
            for key in (RULE, NEW)
        )
        if named != bindings:
            owner = plan.info.qualname if plan.info else plan.cls
            self.steps.skip(
                plan.func,
                owner,
                f"`{name}` returns a list, which jax refuses as a rule's result, "
                "and is used outside rule bindings too: make it return a tuple by hand",
            )
            return False
        plan.returns.update((old, [new]) for old, new in returns.items())
        plan.visits.append(func)
        return True

    def mixin_plans(self) -> list[Plan]:
        """Value rules in plain classes that primitives inherit."""
        plans, chosen = [], self.options.classes  # a review migrates only the chosen classes
        for cls, kind in self.prims.kinds.items():
            if chosen is not None and self.prims.qualnames[cls] not in chosen:
                continue
            func = last_def(cls, RULE)
            if kind.is_primitive or func is None or ast_rule_form(self.prims.bridge.ast_of(func)) != CLASSIC:
                continue
            plan = self._mixin(cls, func)
            if plan is not None:
                plans.append(plan)
        return plans

    def _mixin(self, cls: cst.ClassDef, func: cst.FunctionDef) -> Plan | None:
        info = self.prims.infos.get(cls)
        if info is None:
            return None
        users, prims = inheritors(self.project, info, self.here(), RULE)
        if not prims:
            return None  # no hijax class uses it: another protocol
        others = [u.qualname for u in users if u not in prims]
        if others:
            return self.steps.skip(
                func,
                cls,
                f"`{RULE}` is inherited by the primitive {prims[0].qualname} and "
                f"by {', '.join(others)}, which is none: left alone; give the primitive its "
                "own rule",
            )
        conflict = self.conflict(info)
        if conflict:
            return self.steps.skip(func, cls, f"renaming this mixin's `{RULE}` would define both rules ({conflict})")
        named = self.steps.by_name(cls)
        if named is not None:
            return self.steps.skip(func, cls, f"`{RULE}` is reached {named}: {NOT_FOLLOWED}")
        return self.renames(self.steps.rename(cls, func, NEW))
