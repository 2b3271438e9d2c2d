"""HJX008: subclasses of the old ``HiPrimitive``, removed in jax 0.11.2."""

from __future__ import annotations

import libcst as cst

from ..analysis.summary import Kind
from .context import RuleTransformer
from .registry import rule

ADVICE = ("subclasses `HiPrimitive`, a `core.Primitive` subclass removed in jax 0.11.2; "
          "no mechanical rewrite exists: port it to `HiPrim` by hand (`abstract_eval` "
          "becomes `self.out_aval` set in `__init__`, `to_lojax` becomes `expand`, "
          "autodiff rules become `vjp_fwd`/`vjp_bwd`)")


@rule(
    "HJX008", "old-hiprimitive", (0, 11, 2),
    "Subclasses of the old `HiPrimitive` (removed in jax 0.11.2) are reported as errors, with where "
    "they are and what to port; never half-rewritten.",
    before="""
from jax.experimental.hijax import HiPrimitive

class Old(HiPrimitive):
    def abstract_eval(self, x):
        return x, set()
""",
    after="""
from jax.experimental.hijax import HiPrimitive

class Old(HiPrimitive):
    def abstract_eval(self, x):
        return x, set()
""",
    kinds=frozenset({Kind.OLD}),
)
class OldHiPrimitive(RuleTransformer):
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if self.prims.kinds.get(node) is Kind.OLD:
            self.skipped(self.prims.line(node), node, ADVICE)
