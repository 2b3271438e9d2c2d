"""HJX013: names jax 0.11.1 removed from the hijax module (reported)."""

from __future__ import annotations

from ..base import Rule

RULE = Rule(
    "HJX013", "removed-mutable-types", (0, 11, 1),
    "Reported, as an error: each use of `AvalQDD`, `MutableHiType` or `AvalMutableQDD`, which "
    "jax 0.11.1 removed from `jax.experimental.hijax` with its mutable hijax types; nothing "
    "replaces them.",
    before="""
import jax.experimental.hijax as hjx

def make(ty, qdd):
    return hjx.AvalQDD(ty, qdd)
""",
    after="""
import jax.experimental.hijax as hjx

def make(ty, qdd):
    return hjx.AvalQDD(ty, qdd)
""",
    needs=("QDD", "MutableHiType"),
    rewrite=f"{__name__}.rewrite:RemovedNames",
)
