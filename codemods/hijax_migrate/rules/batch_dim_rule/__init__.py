"""HJX011: jax 0.12 removed ``batch_dim_rule`` and ``VmapOf`` (reported)."""

from __future__ import annotations

from ...analysis.namespace import ASSIGN, CHAINED, DEF, UNPACKING
from ...analysis.scopes import PRIMITIVE_KINDS
from ..base import Rule

RULE = Rule(
    "HJX011",
    "batch-dim-rule",
    (0, 12, 0),
    "Reported, as an error: a primitive that defines `batch_dim_rule` but not `batch` loses "
    "`vmap` in jax 0.12 (the default `batch` that called it through `VmapOf` is gone); uses of "
    "`VmapOf` too. No generic rewrite exists: the message says what to write. A `batch_dim_rule` "
    "that only raises `NotImplementedError` is a note: `vmap` fails on every release alike.",
    before="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
""",
    after="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
""",
    needs=("batch_dim_rule", "VmapOf"),
    kinds=PRIMITIVE_KINDS,
    binds={"batch_dim_rule": frozenset({DEF, ASSIGN, CHAINED, UNPACKING})},  # the forms it decides
    rewrite=f"{__name__}.rewrite:BatchDimRule",
)
