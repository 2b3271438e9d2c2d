"""HJX008: subclasses of the old ``HiPrimitive``, removed in jax 0.11.2."""

from __future__ import annotations

from ...analysis.scopes import Kind
from ..base import Rule

RULE = Rule(
    "HJX008",
    "old-hiprimitive",
    (0, 11, 2),
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
    rewrite=f"{__name__}.rewrite:OldHiPrimitive",
)
