"""HJX008: subclasses of the old ``HiPrimitive``, removed in jax 0.11.2."""

from __future__ import annotations

import libcst as cst

from ...analysis.summary import Kind
from ..context import RuleTransformer
from . import RULE

ADVICE = (
    "subclasses `HiPrimitive`, a `core.Primitive` subclass removed in jax 0.11.2; "
    "no mechanical rewrite exists: port it to `HiPrim` by hand (`abstract_eval` "
    "becomes `self.out_aval` set in `__init__`, `to_lojax` becomes `expand`, "
    "autodiff rules become `vjp_fwd`/`vjp_bwd`)"
)


class OldHiPrimitive(RuleTransformer):
    rule = RULE

    def visit_Module(self, node: cst.Module) -> None:
        self.focus = {cls for cls, kind in self.prims.kinds.items() if kind is Kind.OLD}  # not every node

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if self.prims.kinds.get(node) is Kind.OLD:
            self.skipped(self.prims.line(node), node, ADVICE)
