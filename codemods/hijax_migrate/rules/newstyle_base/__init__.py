"""HJX006: ``NewstyleHiPrimitive`` (jax 0.8.0) becomes ``VJPHiPrimitive``."""

from __future__ import annotations

from ..base import Rule

RULE = Rule(
    "HJX006",
    "newstyle-base",
    (0, 8, 1),
    "`NewstyleHiPrimitive` (jax 0.8.0) is `VJPHiPrimitive` from 0.8.1: imports, bases and "
    "references are renamed; the backward and forward rules are then migrated by HJX001 and HJX002.",
    before="""
from jax.experimental.hijax import NewstyleHiPrimitive

class Op(NewstyleHiPrimitive):
    pass
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):
    pass
""",
    needs=("NewstyleHiPrimitive",),
    rewrite=f"{__name__}.rewrite:NewstyleBase",
)
