"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from ..context import RuleTransformer
from ..registry import rule
from ..summary import PRIMITIVE_KINDS
from ..shape import ClassShape, is_nzs_name, is_static, positional, required, star_name
from .plans import Plan, RewritePlans

_SUPER_CALL = m.Call(func=m.Attribute(value=m.Call(func=m.Name("super")), attr=m.Name("vjp_fwd")))


def lacks_nzs_in(fwd: cst.FunctionDef, shape: ClassShape) -> bool | None:
    """Does ``vjp_fwd`` lack ``nzs_in``? None: its signature cannot be judged.

    jax calls ``vjp_fwd(nzs_in, *inputs)``: with the number of inputs known
    (``in_avals``, ``expand``), the signature says which call it accepts,
    whatever its first parameter is called. Only without it does the name
    decide.
    """
    skip = 0 if is_static(fwd) else 1
    names, least = positional(fwd)[skip:], len(required(fwd)) - skip
    count = shape.input_count
    if count is None or star_name(fwd) is not None:
        return not names or not is_nzs_name(names[0])
    takes = [least <= n <= len(names) for n in (count, count + 1)]
    if takes[0] != takes[1]:
        return takes[0]
    return None if not any(takes) or not names else not is_nzs_name(names[0])


@rule(
    "HJX002", "fwd-nzs-in", (0, 9, 0),
    "`vjp_fwd(self, *args)` from before jax 0.9 gains the `nzs_in` parameter "
    "(which inputs have non-zero tangents); `super().vjp_fwd(...)` calls in it pass it on.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * x, x
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x
""",
    needs=("vjp_fwd",),
    kinds=PRIMITIVE_KINDS,
)
class FwdNzsIn(RewritePlans, RuleTransformer):
    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        fwd = shape.methods.get("vjp_fwd")
        if fwd is None:
            return None
        lacks = lacks_nzs_in(fwd, shape)
        if lacks is None:
            return self.skip(fwd, cls, f"`vjp_fwd` does not fit the primitive's {shape.input_count} "
                             "input(s) with or without `nzs_in`; left alone: check its signature")
        if not lacks:
            return None
        if "nzs_in" in positional(fwd) or any(p.name.value == "nzs_in" for p in fwd.params.kwonly_params):
            return self.skip(fwd, cls, "`vjp_fwd` lacks `nzs_in` but has a parameter named so; rename it by hand")
        plan = Plan(fwd, cls, insert_params=[(0 if is_static(fwd) else 1, "nzs_in")])
        return self.done(plan, "added the `nzs_in` parameter to `vjp_fwd`")

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._in_fwd: list[bool] = []  # per enclosing function: is it a planned vjp_fwd?

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._in_fwd.append(node in self._plans)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        # Only calls of this class's own rule: ``super().vjp_fwd(...)`` in it passes
        # ``nzs_in`` on; ``self.vjp_fwd`` elsewhere is left with a warning; a call
        # on another object (``self.quantizer.vjp_fwd(x)``) is some other protocol.
        if m.matches(updated_node, _SUPER_CALL) and self._in_fwd and self._in_fwd[-1]:
            return updated_node.with_changes(args=[cst.Arg(cst.Name("nzs_in")), *updated_node.args])
        own = m.Call(func=m.Attribute(value=m.Name("self") | m.Call(func=m.Name("super")), attr=m.Name("vjp_fwd")))
        if m.matches(updated_node, own) and self._stack and self._stack[-1] in {p.cls for p in self._plans.values()}:
            line = self.prims.line(self._stack[-1])
            self.skipped(line, self._stack[-1], "calls `vjp_fwd` outside `vjp_fwd`: pass `nzs_in` by hand")
        return updated_node

    def leave_FunctionDef(self, original_node, updated_node):
        self._in_fwd.pop()
        return super().leave_FunctionDef(original_node, updated_node)
