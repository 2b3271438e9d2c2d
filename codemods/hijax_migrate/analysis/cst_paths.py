"""The path facts (``paths.py``, over ``ast``) keyed by libcst's nodes, for the rewrite.

A rule's analysis reads ``ast`` alone (the accumulators' uses, the helpers, the
walk over the paths); the rewrite edits libcst's returns. The bridge maps the
facts it needs across: exits and dropped returns keyed by libcst's ``Return``,
a ``finally`` as its ``Finally``, a ``with`` as its ``With``."""

from __future__ import annotations

import libcst as cst

from .bridge import Bridge
from .paths import Facts


def on_cst(bridge: Bridge, found: Facts) -> Facts:
    """``found`` with its exits and returns as libcst's nodes (events and unknowns stay ``ast``'s)."""
    exits = {bridge.cst_of(node): state for node, state in found.exits.items()}
    discarded, mixed = (
        {bridge.cst_of(ret): _where(bridge, at) for ret, at in kept.items()} for kept in (found.discarded, found.mixed)
    )
    return Facts(found.size, exits, found.unknown, discarded, mixed)


def _where(bridge: Bridge, stmt) -> cst.CSTNode:
    """The ``finally`` of a ``try`` (the block that drops a value), or the ``with``."""
    node = bridge.cst_of(stmt)
    return node.finalbody if isinstance(node, (cst.Try, cst.TryStar)) else node
