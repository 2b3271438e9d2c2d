"""HJX004: the ``vjp_bwd_retval_logs = True`` flag becomes a method (jax 0.11.2)."""

from __future__ import annotations

import libcst as cst

from ...analysis.cst_blocks import after_removal, own_statements
from ...analysis.families import defining, flag_value, is_method
from ...analysis.nodes import is_name
from ...analysis.shape import ClassShape
from ..context import RuleTransformer
from ..plans import Plan, RewritePlans
from . import FLAG, RULE


def _flags(cls: cst.ClassDef) -> list[cst.Assign | cst.AnnAssign]:
    """The body's own settings of the flag: plain, annotated or chained."""
    return [small for small in own_statements(cls) if _sets_flag(small)]


def _sets_flag(small: cst.BaseSmallStatement) -> bool:
    """``FLAG = ...``, ``a = FLAG = ...`` or ``FLAG: bool = ...``."""
    if isinstance(small, cst.Assign):
        return any(is_name(t.target, FLAG) for t in small.targets)
    return isinstance(small, cst.AnnAssign) and is_name(small.target, FLAG)


def _flag_value(small: cst.Assign | cst.AnnAssign) -> bool | None:
    """True/False for a flag set to a literal, else None."""
    if is_name(small.value, "True"):
        return True
    return False if is_name(small.value, "False") else None


class RetvalLogsMethod(RewritePlans, RuleTransformer):
    rule = RULE

    def visit_Module(self, node: cst.Module) -> None:
        self._flags: set[cst.CSTNode] = set()  # flag settings to remove
        super().visit_Module(node)

    def plan_class(self, cls: cst.ClassDef, shape: ClassShape) -> Plan | None:
        if FLAG in shape.methods:
            return None
        own = _flags(cls)
        func = shape.methods.get("vjp_bwd_retval")
        if own:
            value = _flag_value(own[-1])
            if value is None:
                return self.skip(
                    cls,
                    cls,
                    f"`{FLAG}` is set to something other than True/False; in jax 0.11.2 it is a method: port by hand",
                )
            inherited = self._inherited(cls) if value and func is None else None
            if inherited is not None:  # removed, the flag would leave that rule read as cotangents
                return self.skip(
                    cls,
                    cls,
                    f"sets `{FLAG} = True` for the `vjp_bwd_retval` it inherits from {inherited}, which does not "
                    f"set it; jax 0.11.2 has no flag: define `{FLAG}` here (calling that rule), by hand",
                )
            self._flags.update(own)
            self.changed(self.prims.line(cls), cls, f"removed `{FLAG} = {value}`")
            return self.rename(cls, func, FLAG) if value and func is not None else None
        where = self._setter(cls)
        if where is None or func is None or is_method(where[1]):
            return None  # a base's method: jax 0.11.2's own API (HiPrim's), no flag
        value = flag_value(where[1])
        if value is None:
            return self.skip(
                func,
                cls,
                f"{where[0].qualname} sets `{FLAG}` to something other than True/False: "
                "whether `vjp_bwd_retval` returns logs is not known; port by hand",
            )
        if not self.project.class_kind(where[0]).is_primitive:
            self.skip(
                func,
                cls,
                f"`{FLAG}` is set in {where[0].qualname}, which is no primitive: "
                "remove it there by hand (in jax 0.11.2 it is a method)",
            )
        return self.rename(cls, func, FLAG) if value else None

    def _inherited(self, cls: cst.ClassDef) -> str | None:
        """The base whose ``vjp_bwd_retval`` this class inherits where no flag of True reaches
        that base (one that does becomes ``vjp_bwd_retval_logs``, and this one with it)."""
        info = self.prims.infos.get(cls)
        found = defining(self.project, info, "vjp_bwd_retval") if info is not None else None
        if found is None:
            return None
        flag = defining(self.project, found[0], FLAG)
        return None if flag is not None and flag_value(flag[1]) else found[0].qualname

    def _setter(self, cls: cst.ClassDef):
        """The base that sets the flag for this class (in this file or another), with its bindings."""
        info = self.prims.infos.get(cls)
        return defining(self.project, info, FLAG) if info is not None else None

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign):
        if original_node not in self._flags:
            return updated_node
        rest = [t for t in updated_node.targets if not is_name(t.target, FLAG)]
        return updated_node.with_changes(targets=rest) if rest else cst.RemovalSentinel.REMOVE

    def leave_AnnAssign(self, original_node, updated_node):
        return cst.RemovalSentinel.REMOVE if original_node in self._flags else updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """A flag removed from the end of a line (``x = 1; FLAG = True``) takes its ``;`` with it."""
        return after_removal(updated_node, original_node.body[-1] in self._flags)

    leave_SimpleStatementSuite = leave_SimpleStatementLine
