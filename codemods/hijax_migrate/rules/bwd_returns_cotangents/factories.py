"""HJX001 for a class made by ``Name = type("Name", bases, {"vjp_bwd": f})``.

The class has no statement: its rule is the dict's ``"vjp_bwd"`` member. A
function of the module returning cotangents is renamed as a body binding
``vjp_bwd = f`` is: the key becomes ``"vjp_bwd_retval"`` (the function's list
results tuples), and subclasses and calls in other files follow it (the
change renames "the bound `vjp_bwd`", see ``rules/decisions.py``). What cannot be read
is said: a note where the bases or the function are not visible, an error
where a value rule is left in place. ``engine.runtime`` speaks for the
``type(...)`` calls that are no such statement.

The transformer owns a ``FactoryPlanner``; it decides with the
``FamilyPlanner`` (conflicts, list results, ``renamed``), as a body binding is.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from ...analysis.ast_summary import rule_form
from ...analysis.returns import returns_values
from ...analysis.scopes import CLASSIC, ClassInfo, Kind
from ...analysis.summary import factory_member
from ..context import ERROR, NOTE
from ..plans import Plan
from .bindings import function_named

if TYPE_CHECKING:  # ``engine.runtime`` imports ``verdict`` alone: not the planners' modules
    from .families import FamilyPlanner
    from .planning import RuleInputs, Steps

RULE, NEW = "vjp_bwd", "vjp_bwd_retval"
BY_HAND = 'make its key `"vjp_bwd_retval"` by hand (jax 0.8.1 on)'


def verdict(func: ast.FunctionDef | None, kind: Kind) -> tuple[str, str] | None:
    """What is said of a ``type(...)`` placing the rule ``func`` (``ast``'s statement; None:
    not a function of the module) under bases of ``kind``, where it is not migrated; None: nothing."""
    if kind is Kind.NONE:
        return None
    if not kind.is_primitive:
        return (
            f"its bases cannot be decided; if they are hijax primitives and the rule returns cotangents, {BY_HAND}"
        ), NOTE
    if func is None:
        return (
            f"its form cannot be read here (not a function of this module): if it returns cotangents, {BY_HAND}"
        ), NOTE
    if returns_values(func):
        return (
            "it returns cotangents, and jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on; left as "
            'written: make its key `"vjp_bwd_retval"` (a value rule), or port it to accumulators, by hand'
        ), ERROR
    return None  # an accumulator rule: right as it is


class FactoryPlanner:
    """HJX001 for the ``type(...)`` statements of one file."""

    def __init__(self, inputs: RuleInputs, steps: Steps, families: FamilyPlanner):
        self.prims, self.project, self.options = inputs.prims, inputs.project, inputs.options
        self.steps, self.families = steps, families

    def factory_plans(self) -> list[Plan]:
        chosen = self.options.classes  # a review migrates only the chosen classes
        plans = (
            self._factory(stmt, info)
            for stmt, info in self.prims.factories.items()
            if chosen is None or info.qualname in chosen
        )
        return [plan for plan in plans if plan is not None]

    def _factory(self, stmt: cst.SimpleStatementLine, info: ClassInfo) -> Plan | None:
        element = factory_member(stmt, RULE, self.prims.bridge)
        if element is None:
            return None
        func = (
            function_named(self.prims.wrapper.module, element.value.value, None)
            if isinstance(element.value, cst.Name)
            else None
        )
        kind = self.project.class_kind(info)
        if kind.is_primitive and func is not None and rule_form(self.prims.bridge.ast_of(func)) == CLASSIC:
            return self._rename(stmt, info, element, func)
        said = verdict(self.prims.bridge.ast_of(func) if func is not None else None, kind)
        return self._say(element, info, said[0], said[1]) if said else None

    def _rename(self, stmt, info: ClassInfo, element: cst.DictElement, func: cst.FunctionDef) -> Plan | None:
        if factory_member(stmt, NEW, self.prims.bridge) is not None:
            return self._say(element, info, f"the dict places both `{RULE}` and `{NEW}`; left as written")
        if not isinstance(element.key, cst.SimpleString):
            return self._say(element, info, f"its key is not one plain string: {BY_HAND}")
        conflict = self.families.conflict(info)
        if conflict:
            return self._say(element, info, f"renaming its key would define both rules ({conflict}): port by hand")
        named = self.steps.by_name(None, RULE, info)
        if named is not None:
            return self._say(element, info, f"it is reached {named}: a rename would not follow it there")
        plan = Plan(element, stmt, new_name=NEW, info=info)
        if not self.families.bound_tuples(plan, func):
            return None
        if self.options.strategy == "accum":
            self._say(
                element,
                info,
                f"the `{RULE}` it places renamed to `{NEW}`, not given accumulators "
                "(--strategy accum): the function is not the class's to change",
                NOTE,
            )
        return self.families.renames(
            self.steps.done(plan, f"renamed the bound `{RULE}` (a key of `type(...)`) to `{NEW}`")
        )

    def _say(self, element: cst.DictElement, info: ClassInfo, reason: str, severity: str = ERROR) -> None:
        placed = cst.Module([]).code_for_node(element.value)
        self.steps.skipped(
            self.prims.line(element), info.qualname, f"`type(...)` places `{RULE} = {placed}`: {reason}", severity
        )
        return None
