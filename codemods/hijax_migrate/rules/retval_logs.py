"""HJX004: the ``vjp_bwd_retval_logs = True`` flag becomes a method (jax 0.11.2)."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from ..context import RuleTransformer
from ..registry import rule
from ..summary import PRIMITIVE_KINDS
from ..shape import ClassShape
from .plans import Plan, RewritePlans

FLAG = "vjp_bwd_retval_logs"


def _flag_value(stmt: cst.SimpleStatementLine) -> bool | None:
    """True/False for a lone ``vjp_bwd_retval_logs = <bool>`` line, else None."""
    if len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    value = getattr(small, "value", None)
    if m.matches(value, m.Name("True")):
        return True
    return False if m.matches(value, m.Name("False")) else None


@rule(
    "HJX004", "retval-logs-method", (0, 11, 2),
    "`vjp_bwd_retval_logs = True` with a `vjp_bwd_retval` returning `(cotangents, logs)`: "
    "from jax 0.11.2 the flag goes and the method is named `vjp_bwd_retval_logs`.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):
    vjp_bwd_retval_logs = True

    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):

    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}
""",
    needs=("vjp_bwd_retval_logs",),
    kinds=PRIMITIVE_KINDS,
)
class RetvalLogsMethod(RewritePlans, RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self._flags: set[cst.SimpleStatementLine] = set()  # flag lines to remove
        super().visit_Module(node)

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        flag = shape.attributes.get(FLAG)
        if flag is None or FLAG in shape.methods:
            return None
        value = _flag_value(flag)
        if value is None:
            return self.skip(cls, cls, f"`{FLAG}` is set to something other than True/False; "
                             "in jax 0.11.2 it is a method: port by hand")
        self._flags.add(flag)
        func = shape.methods.get("vjp_bwd_retval")
        if not value or func is None:
            self.changed(self.prims.line(cls), cls, f"removed `{FLAG} = {value}`")
            return None
        plan = self.rename(cls, func, FLAG)
        self.changed(self.prims.line(cls), cls, f"removed `{FLAG} = True`")
        return plan

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if original_node in self._flags:
            return cst.RemovalSentinel.REMOVE
        return super().leave_SimpleStatementLine(original_node, updated_node)
