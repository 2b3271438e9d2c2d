"""HJX003: ``VJPHiPrimitive`` is ``HiPrim`` from jax 0.11.2."""

from __future__ import annotations

from ..base import Rule

RULE = Rule(
    "HJX003",
    "hiprim-base",
    (0, 11, 2),
    "`VJPHiPrimitive` is gone in jax 0.11.2: imports (aliases kept working), bases, "
    "`hijax.VJPHiPrimitive` and `isinstance` checks name `HiPrim`; version switches stay.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive, HiPrim
from jax.experimental import hijax as hx

class Op(VJPHiPrimitive):
    pass

class Other(hx.VJPHiPrimitive):
    pass
""",
    after="""
from jax.experimental.hijax import HiPrim
from jax.experimental import hijax as hx

class Op(HiPrim):
    pass

class Other(hx.HiPrim):
    pass
""",
    needs=("VJPHiPrimitive",),
    rewrite=f"{__name__}.rewrite:HiPrimBase",
)
