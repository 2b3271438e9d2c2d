"""Turning the returns of a backward rule into accumulator writes.

Each value-returning ``return`` becomes writes for the accumulators the rule
does not write itself, then ``return None``; ``return None`` paths and log
dicts stay. What "writes itself" means is read per return from the rule's path
facts (``analysis/paths.py``): written on every path that reaches it (the
cotangent is dropped), on none (it is written), on some only, or handed to a
call that cannot be read (the rule is refused, naming the line). A value that
is no tuple in any spelling (``returns.visibly_tuple``), returned where every
accumulator is written or handed on, is read as logs and kept, from jax 0.11.1
(before it no rule has logs). A return whose value a ``finally`` block always
drops writes nothing; one it may drop or not is refused. Where an exception
could be caught inside the rule (a ``try``, a ``with``), every cotangent is
evaluated into a fresh name before the first write.
"""

from __future__ import annotations

import ast
from functools import cache

import libcst as cst

from ..analysis.accum import (
    accumulator_names,
    code,
    fresh_name,
    is_none,
    return_none,
    tree_write,
    uses_tree_write,
    visibly_array,
    writes_for,
)
from ..analysis.accum_uses import Accumulator, accumulator_params, defaulted
from ..analysis.ast_summary import parse_ast
from ..analysis.cst_paths import on_cst
from ..analysis.fwd_signature import inherited_inputs
from ..analysis.names import NameModel
from ..analysis.nodes import LazyParents, findall
from ..analysis.paths import Facts, Written
from ..analysis.qualified import model_of
from ..analysis.reach import (
    Arity,
    NamedUse,
    Use,
    classic_family,
    file_named_uses,
    reaches,
    tree_uses,
)
from ..analysis.return_values import as_tuple, item_comments, tuple_items
from ..analysis.returns import in_catching_block
from ..analysis.scopes import ClassInfo, ModuleSummary, Scope
from ..analysis.sites import UNKNOWN, Site
from ..core.line_breaks import lines_of
from ..tree.calls import may_use
from .context import NOTE
from .plans import Plan, RewritePlans
from .return_actions import EVALUATE, NONE, TUPLE, Action, RuleReturns, decide
from .rule_sight import (
    TRIES,
    Sight,
    builtin_of,
    file_rule_uses,
    finally_line,
    reached_by_name,
    reaching,
    rule_arity,
    tree_map_of,
)
from .write_checks import check_writes


class AccumulatorWrites(RewritePlans):
    def parents(self):
        """Resolved only for a file with a rule to convert."""
        if not hasattr(self, "_parents"):
            self._parents = LazyParents(self.prims.wrapper.module)
        return self._parents

    def by_name(self, cls: cst.ClassDef, attr: str = "vjp_bwd", info: ClassInfo | None = None) -> str | None:
        """Where and how ``attr`` of ``cls``'s family (``info``: a class made by ``type(...)``)
        may be reached by a name, or on a class picked when the code runs
        (``rule_sight.reached_by_name``): what follows "reached" in a finding."""
        info = info if info is not None else self.prims.infos.get(cls)
        word = cls.name.value if cls is not None else info.qualname.rsplit(".", 1)[-1]
        return reached_by_name(self.sight(), info, word, attr, self.follows_by_name)

    def sight(self) -> Sight:
        """What the rules' decisions read of this file and the tree, from ``ast`` (made once)."""
        if "_sight" not in self.__dict__:
            self._sight = self._make_sight()
        return self._sight

    def _make_sight(self) -> Sight:
        bridge, prims = self.prims.bridge, self.prims
        model = model_of(prims.code)
        # the model whose positions are ``bridge.parsed``'s: older text has one of its own, made if asked
        positions = (lambda: model) if bridge.as_written else cache(lambda: NameModel.of(bridge.parsed))
        return Sight(
            self.project,
            {bridge.ast_of(c): info for c, info in prims.infos.items() if isinstance(c, cst.ClassDef)},
            {c.name.value: bridge.ast_of(c) for c in prims.kinds},
            bridge.parsed.body,
            positions,
            self._uses,
            self.options.target,
            builtin_of(model),
            tree_map_of(model),
            self.rule_line,
            self.report.file,
            self.named_here,
        )

    def _summary(self) -> ModuleSummary:
        """This file's summary, as the rules hold it."""
        return ModuleSummary.of(self.prims.module_scope or Scope(None), list(self.prims.infos.values()))

    def follows_by_name(self, named: NamedUse) -> bool:
        """Does the migration rewrite ``named`` with the rules it reaches (a rule's hook)?"""
        return False

    def named_here(self) -> list[NamedUse]:
        """The references by name of this file (``analysis.name_refs``), found once."""
        if "_named" not in self.__dict__:
            self._named = self._named_uses()
        return self._named

    def _named_uses(self) -> list[NamedUse]:
        code = self.prims.code if self.prims.code is not None else self.prims.wrapper.module.code
        try:
            tree = parse_ast(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # newer syntax than this Python's
            return []
        summary = self._summary()
        return file_named_uses(self.project, tree, summary, code, "", self.prims.origin)

    def reaching(self, cls: cst.ClassDef, func: cst.FunctionDef, attr: str = "vjp_bwd") -> list[Use]:
        """The uses of ``.attr``, in this file and the tree's others, that can
        reach ``cls``'s own rule ``func`` (``rule_sight.reaching``), in order."""
        return reaching(self.sight(), self.prims.infos.get(cls), self.prims.bridge.ast_of(func), attr)

    def family_blocker(self, cls: cst.ClassDef, func: cst.FunctionDef) -> tuple[ClassInfo, Use] | None:
        """A use that can reach ``func`` or the value rule of a class joined to ``cls``
        by inheritance (their arguments unknown here: any call may bind them), and that class."""
        target = self.prims.infos.get(cls)
        if target is None:
            uses = self.reaching(cls, func)
            return (None, uses[0]) if uses else None
        for member in classic_family(self.project, target):
            arity = rule_arity(self.prims.bridge.ast_of(func)) if member.key == target.key else Arity(0, None)
            use = next(
                (use for use in self._uses("vjp_bwd") if reaches(self.project, use, member, "vjp_bwd", arity)), None
            )
            if use is not None:
                return member, use
        return None

    def note_unknown(self, plan: Plan | None, unknown: list[Use], attr: str, effect: str) -> Plan | None:
        """Say where a changed rule may be called from code whose class is not known."""
        if plan is not None and unknown:
            more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
            self.skipped(
                self.prims.line(plan.func),
                plan.cls,
                f"`.{attr}` at {unknown[0].where}{more} is taken "
                f"on an object whose class cannot be told: if it is a `{plan.cls.name.value}`, {effect}",
                NOTE,
            )
        return plan

    def _uses(self, attr: str) -> list[Use]:
        cache = self.__dict__.setdefault("_uses_of", {})
        if attr not in cache:
            cache[attr] = self._uses_here(attr) + tree_uses(self.project, attr, self.report.file)
        return cache[attr]

    def _uses_here(self, attr: str) -> list[Use]:
        code = self.prims.code if self.prims.code is not None else self.prims.wrapper.module.code
        if not may_use(code, attr):
            return []
        try:
            tree = parse_ast(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # newer syntax than this Python's
            found = findall(self.prims.wrapper.module, cst.Attribute, lambda node: node.attr.value == attr)
            return [Use(f"line {self.prims.line(node)}", Site(self.prims.line(node), UNKNOWN, None)) for node in found]
        summary = self._summary()
        return file_rule_uses(self.project, tree, summary, attr, self.prims.origin)

    def to_accumulators(self, cls, shape, func, why: str) -> Plan | None:
        """A value rule ``(self, res, [sres,] g, extras=...)`` gains one accumulator per input."""
        if func.decorators:  # a decorator may work on the returned cotangents: writes inside would skip it
            name = code(func.decorators[0].decorator)
            return self.skip(
                func,
                cls,
                f"{why}, but `@{name}` wraps the rule, and whatever it does with the "
                "returned cotangents would be skipped by writes inside it: port by hand, "
                "writing what the decorator makes of them",
            )
        rule = self.prims.bridge.ast_of(func)
        pos = defaulted(rule)
        fixed = 3 if shape.has_sres and len(pos) >= 4 and not pos[3][1] else 2
        given = [name for name, default in pos[1 : 1 + fixed] if default]
        if len(pos) < 1 + fixed or given:
            why_not = f"`{given[0]}` has a default" if given else "it takes no `res, g`"
            return self.skip(
                func,
                cls,
                f"{why}, but {why_not}, and accumulator parameters cannot follow it: "
                "drop the default, or keep the value form (rename to `vjp_bwd_retval`)",
            )
        params = accumulator_params(rule, fixed)
        if params.named or params.star:
            return self.skip(func, cls, f"{why}, but its positional parameters do not match the inputs")
        taken = {n.value for n in findall(func, cst.Name)}
        plan = Plan(func, cls)
        if shape.has_sres and fixed == 2:  # (self, res, g): sres goes after res
            plan.insert_params.append((2, "sres"))
        inputs = self.effective_inputs(cls)
        if inputs is None:  # variadic: *arg_accums, written the way jax's base class does
            if params.first_extra is not None:
                return self.skip(
                    func,
                    cls,
                    f"{why}, but its defaulted parameters would take the accumulators "
                    "of variadic inputs; write the accumulator form by hand",
                )
            plan.new_star = fresh_name("arg_accums", taken)
            return self.fill_writes(plan, shape, plan.new_star, f"accumulator form ({why})")
        names = accumulator_names(inputs, taken)
        if params.first_extra is None:
            plan.new_params = names
        else:  # before the defaulted extras: jax passes accumulators positionally
            plan.insert_params += [(params.first_extra, n) for n in names]
        accs = [Accumulator(n) for n in names]
        return self.fill_writes(plan, shape, accs, f"accumulator form ({why})")

    def effective_inputs(self, cls: cst.ClassDef) -> list[str] | None:
        """Inputs from the ``expand``/``vjp_fwd`` the class has or inherits from a class of this file."""
        bridge = self.prims.bridge
        return inherited_inputs(bridge.ast_of(cls), {c.name.value: bridge.ast_of(c) for c in self.prims.kinds})

    def fill_writes(
        self, plan: Plan, shape, accs: list[Accumulator] | str, action: str, facts: Facts | None = None
    ) -> Plan | None:
        """``accs``: one per input, or the name of ``*arg_accums`` when their number is not visible;
        ``facts``: what each path does to them, over ``ast`` (none: fresh accumulators, never
        written). What each return becomes is decided from ``ast`` (``return_actions``), then applied."""
        bridge = self.prims.bridge
        sight = self.sight()
        rule = RuleReturns(bridge.ast_of(plan.func), accs, facts, sight.target, sight.builtin, self.rule_line)
        return self.apply_decided(plan, shape, accs, action, facts, decide(rule))

    def apply_decided(self, plan: Plan, shape, accs, action: str, facts: Facts | None, decided) -> Plan | None:
        """The notes and refusal of a decision (``return_actions``) said, or its actions made edits."""
        bridge = self.prims.bridge
        for note in decided.notes:
            self.skip(plan.func, plan.cls, note, NOTE)
        if decided.refusal is not None:
            return self.skip(plan.func, plan.cls, decided.refusal)
        for ret in self.returns_of(plan.func):
            found = decided.actions.get(bridge.ast_of(ret))
            if found is not None:
                plan.returns[ret] = self._applied(plan, shape, ret, accs, found)
        if not plan.returns and not (plan.new_params or plan.insert_params or plan.new_star):
            return None
        discarded = frozenset(bridge.cst_of(ret) for ret in decided.discarded)
        check_writes(plan, accs, self.prims.line, self.returned, facts and on_cst(bridge, facts), discarded)
        if uses_tree_write([w for new in plan.returns.values() for w in new]):
            # only now: a return found unfit above leaves the class, and the file, as they were
            self.context.add_import("jax")
        return self.done(plan, action)

    def _applied(self, plan: Plan, shape, ret: cst.Return, accs, found: Action) -> list:
        """The statements ``ret`` becomes, as decided."""
        if found.kind == NONE:
            return [return_none(ret)]
        if found.kind == EVALUATE:
            return [cst.Expr(ret.value), return_none(ret)]
        if found.kind == TUPLE:
            return self._tuple_writes(plan, shape, ret, accs, found.state)
        return self._whole_write(plan, ret, accs)

    def rule_line(self, node: ast.AST) -> int:
        """The line of an ``ast`` node a finding names; of a ``try``, its ``finally``'s."""
        if isinstance(node, TRIES):
            return self.prims.file_line(finally_line(node, lines_of(self.prims.bridge.text)))
        return self.prims.ast_line(node)

    def _whole_write(self, plan: Plan, ret: cst.Return, accs) -> list:
        target = accs if isinstance(accs, str) else [acc.target for acc in accs]
        shown, rule = self.prims.bridge.ast_of(ret).value, self.prims.bridge.ast_of(plan.func)
        value = as_tuple(ret.value, shown, rule) or ret.value  # a list would not match the tuple of accumulators
        return [tree_write(cst.Name(target) if isinstance(target, str) else target, value), return_none(ret)]

    def _tuple_writes(self, plan: Plan, shape, ret: cst.Return, accs: list[Accumulator], state: tuple) -> list:
        items = tuple_items(ret)
        done = return_none(ret)
        evaluated: list[cst.BaseSmallStatement] = []
        arrays = [visibly_array(item) for item in items]
        bridge = self.prims.bridge
        if in_catching_block(bridge.ast_of(ret), bridge.ast_of(plan.func)) and sum(not is_none(i) for i in items) > 1:
            items, evaluated = _evaluated_first(plan.func, items)
        per_item = [
            []
            if w is Written.ALWAYS
            else writes_for(cst.parse_expression(acc.target), v, i in shape.pytree_inputs, arrays[i])
            for i, (acc, v, w) in enumerate(zip(accs, items, state))
        ]
        _keep_comments(plan, ret, per_item, done)
        return [*evaluated, *(w for item in per_item for w in item), done]


def _evaluated_first(func: cst.FunctionDef, items: list) -> tuple[list, list]:
    """Every cotangent into a fresh name, so that none is written if one raises."""
    taken = {n.value for n in findall(func, cst.Name)}
    names, assigns = [], []
    for item in items:
        if is_none(item) or isinstance(item, cst.Name):
            names.append(item)
            continue
        name = fresh_name(f"ct{len(assigns)}", taken)
        assigns.append(cst.Assign([cst.AssignTarget(cst.Name(name))], item))
        names.append(cst.Name(name))
    return names, assigns


def _keep_comments(plan: Plan, ret: cst.Return, per_item: list[list], done: cst.Return) -> None:
    """Each element's comments go with its writes (an element that writes
    nothing hands them on to the next statement)."""
    leading, trailing, after = item_comments(ret)
    carried: list[str] = []
    for writes, own, end in zip(per_item, leading, trailing):
        carried += own
        if not writes:
            carried += [end] if end else []
            continue
        plan.comments[writes[0]] = (carried, None)
        carried = []
        if end:
            plan.comments[writes[-1]] = (plan.comments.get(writes[-1], ([], None))[0], end)
    if carried + after:
        plan.comments[done] = (carried + after, None)
