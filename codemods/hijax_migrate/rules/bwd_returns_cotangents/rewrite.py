"""HJX001: a ``vjp_bwd`` that returns cotangents instead of accumulating them."""

from __future__ import annotations

import libcst as cst

from ...analysis.accum_uses import Accumulator, Params, Unknown, Uses, accumulator_params
from ...analysis.helpers import Helpers
from ...analysis.nodes import findall, is_name
from ...analysis.returns import Returned, classify, own_returns, returns_values, tuple_items
from ...analysis.shape import ClassShape, class_shape, conditional_defs, positional
from ...analysis.summary import Kind
from ..context import NOTE, RuleTransformer
from ..family_rules import FamilyRules
from ..plans import Plan
from ..writes import AccumulatorWrites
from . import RULE


class BwdReturnsCotangents(FamilyRules, AccumulatorWrites, RuleTransformer):
    rule = RULE
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        for cls, kind in self.prims.kinds.items():
            func = class_shape(cls).methods.get("vjp_bwd") if kind is Kind.EXTERNAL else None
            if func is not None and returns_values(own_returns(func)):
                self.skip(func, cls, "a base class comes from outside the tree and cannot be decided; "
                          "left alone (pass --base MODULE.CLASS if it is a hijax primitive)", NOTE)

    def extra_plans(self) -> list[Plan]:
        return self.mixin_plans()  # family hook: value rules in plain mixins

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        func = shape.methods.get("vjp_bwd")
        hidden = conditional_defs(cls).get("vjp_bwd")
        if hidden is not None:
            return self.skip(hidden, cls, "`vjp_bwd` is defined inside a block of the class body (if, try, "
                             "for...): which one runs is decided when the code runs; port each by hand")
        if func is None:  # family hook: a rule bound in the body (``vjp_bwd = f``)
            return self.plan_bound(cls, shape)
        if not returns_values(own_returns(func)):
            return None
        alias = next((n for s in cls.body.body if not isinstance(s, cst.FunctionDef)
                      for n in findall(s, cst.Name, lambda name: is_name(name, "vjp_bwd"))), None)
        if alias is not None:  # ``_ref = vjp_bwd``: a rename would leave the name unbound there
            return self.skip(func, cls, f"`vjp_bwd` is named in the class body (line {self.prims.line(alias)}): "
                             "a rename would leave that name unbound, and accumulators change its calls; "
                             "port both by hand")
        named = self.by_name(cls)
        if named is not None:
            return self.skip(func, cls, f"`vjp_bwd` is reached by name at {named} (a string): neither a "
                             "rename nor accumulators would follow it there; port both by hand")
        params = accumulator_params(func, 3 if shape.has_sres else 2)
        if params.star and len(positional(func)) == 2 and not shape.has_sres:
            # jax 0.8.0's ``vjp_bwd(self, res, *args)``, args the output cotangent: no ``g`` for the
            # accumulator form to follow, so a value rule; ``vjp_bwd_retval(res, g)`` fills ``*args``
            return self.rename_in_family(cls, shape, func)
        if params.named or params.star:
            return self.half_ported(cls, shape, func, params)
        if "vjp_bwd_retval" in shape.methods or "vjp_bwd_retval" in shape.attributes:
            return self.skip(func, cls, "defines both `vjp_bwd` and `vjp_bwd_retval`; left as written")
        if shape.has_sres:
            where = self.where_used()
            if where is not None:
                return self.skip(func, cls, "structured residuals need the accumulator form, and `.vjp_bwd` is "
                                 f"used as a value at {where}, where that would break the call; port both by hand")
            return self.to_accumulators(cls, shape, func, "structured residuals need the accumulator form")
        if self.options.strategy == "accum":
            where = self.where_used()
            if where is None:
                return self.to_accumulators(cls, shape, func, "--strategy accum")
            plan = Plan(func, cls, new_name="vjp_bwd_retval")
            return self.done(plan, "renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators "
                             f"(--strategy accum): `.vjp_bwd` is used as a value at {where}")
        return self.rename_in_family(cls, shape, func)  # family hook: mixins, duplicates, out of step

    def half_ported(self, cls, shape, func, params: Params) -> Plan | None:
        """Accumulators are there, and values still returned: write those not written yet."""
        where = self.where_used()
        if where is not None:
            what = "cotangents" if all(classify(r) in (Returned.NOTHING, Returned.TUPLE) for r in own_returns(func)) \
                else "values (cotangents, or logs: not known which)"
            return self.skip(func, cls, f"`vjp_bwd` takes accumulators and returns {what}, and `.vjp_bwd` "
                             f"is used as a value at {where}, where they may be used; not guessing")
        if params.named and params.star:
            return self.skip(func, cls, "`vjp_bwd` takes named accumulators and `*` ones; not guessing")
        scopes, parents = self.scopes_and_parents()
        uses = Uses(func, scopes, parents)
        returns = own_returns(func)
        try:
            accs = self._half_accumulators(cls, shape, func, params, uses, returns)
            if accs is None:
                return None
            whole = [Accumulator(accs, handed=list(uses.spread))] if isinstance(accs, str) else accs
            facts = Helpers(scopes, parents, self.helper_resolver(cls)).facts(func, whole)
        except Unknown as unknown:
            return self.skip(func, cls, f"{unknown} (line {self.prims.line(unknown.node)}): whether it is "
                             "written cannot be decided; write the accumulators by hand")
        return self.fill_writes(Plan(func, cls), shape, returns, accs, "returned cotangents became "
                                "accumulator writes, or were dropped where the rule writes them already", facts)

    def _half_accumulators(self, cls, shape, func, params: Params, uses: Uses, returns):
        """The accumulators of a half-ported rule, or the name of ``*arg_accums`` where their number
        is not visible (None: refused, said)."""
        if params.named:
            count = self._count(cls, shape, [])
            if count is not None and count != len(params.named):
                return self.skip(func, cls, f"`vjp_bwd` takes {len(params.named)} accumulators for {count} "
                                 "inputs; not guessing which is which")
            return [uses.named(name) for name in params.named]
        accs = uses.star(params.star, self._count(cls, shape, returns))
        if accs == -1:  # their number is not visible, and no element is used: a write of the whole
            return params.star
        if isinstance(accs, int):
            return self.skip(func, cls, f"the number of inputs is not visible (`{params.star}` is indexed)")
        return accs

    def _count(self, cls, shape, returns) -> int | None:
        inputs = self.effective_inputs(cls)
        if inputs is not None:
            return len(inputs)
        lengths = {len(tuple_items(r)) for r in returns if classify(r) is Returned.TUPLE}
        return lengths.pop() if len(lengths) == 1 else None
