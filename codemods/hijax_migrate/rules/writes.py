"""Turning a value-returning backward rule into accumulator writes."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor

from ..accum import accumulator_names, return_none, tree_write, uses_tree_write, writes_for
from ..returns import Returned, classify, item_comments, own_returns, tuple_items
from ..shape import positional
from .plans import Plan, RewritePlans


class AccumulatorWrites(RewritePlans):
    def to_accumulators(self, cls, shape, func, why: str) -> Plan | None:
        returns = own_returns(func)
        inputs = shape.inputs
        if inputs is None:
            lengths = {len(tuple_items(r)) for r in returns if classify(r) is Returned.TUPLE}
            if len(lengths) != 1 or any(classify(r) is Returned.OPAQUE for r in returns):
                return self.skip(func, cls, f"{why}, but the number of inputs is not visible")
            inputs = [f"arg{i}" for i in range(lengths.pop())]
        taken = {n.value for n in m.findall(func, m.Name())}
        plan = Plan(func, cls, new_params=accumulator_names(inputs, taken))
        if shape.has_sres and len(positional(func)) == 3:  # (self, res, g): sres goes after res
            plan.insert_params.append((2, "sres"))
        return self.fill_writes(plan, shape, returns, plan.new_params, f"accumulator form ({why})")

    def fill_writes(self, plan: Plan, shape, returns, targets: list[str], action: str) -> Plan | None:
        accs = [cst.parse_expression(t) for t in targets]
        for ret in returns:
            kind = classify(ret)
            done = return_none(ret)
            if kind is Returned.TUPLE:
                items = tuple_items(ret)
                if len(items) != len(accs):
                    return self.skip(plan.func, plan.cls, f"returns {len(items)} cotangents for {len(accs)} inputs")
                per_item = [writes_for(a, v, i in shape.pytree_inputs) for i, (a, v) in enumerate(zip(accs, items))]
                _keep_comments(plan, ret, per_item, done)
                writes = [w for item in per_item for w in item]
            elif kind is Returned.OPAQUE:
                writes = [tree_write(targets, ret.value)]
            else:
                continue
            plan.returns[ret] = [*writes, done]
        if uses_tree_write([w for new in plan.returns.values() for w in new]):
            # only now: a return found unfit above leaves the class, and the file, as they were
            AddImportsVisitor.add_needed_import(self.context, "jax")
        return self.done(plan, action)


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
