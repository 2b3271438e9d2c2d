"""The path facts (``paths.py``, over ``ast``) for code held as libcst's nodes.

A rule's analysis finds the accumulators' uses on libcst's nodes (their
scopes, the statements they stand in); the walk over the paths reads
``ast``'s statements. The bridge maps each statement one way, and the facts
the other: exits and dropped returns keyed by libcst's ``Return``, a
``finally`` as its ``Finally``, a ``with`` as its ``With``."""

from __future__ import annotations

import libcst as cst

from .bridge import Bridge
from .paths import Facts, facts_of, once_per_pass


def facts_on(bridge: Bridge, func: cst.FunctionDef, events: dict, size: int, builtin=None) -> Facts:
    """``paths.facts_of`` of ``func``, ``events`` keyed by libcst's statements, the facts by libcst's nodes."""
    found = facts_of(bridge.ast_of(func), on_ast(bridge, events), size, builtin)
    exits = {bridge.cst_of(node): state for node, state in found.exits.items()}
    discarded, mixed = (
        {bridge.cst_of(ret): _where(bridge, at) for ret, at in kept.items()} for kept in (found.discarded, found.mixed)
    )
    return Facts(size, exits, found.unknown, discarded, mixed)


def loop_writes_once(bridge: Bridge, loop: cst.For, events: dict) -> bool:
    """``paths.once_per_pass`` of ``loop``, ``events`` keyed by libcst's statements."""
    return once_per_pass(bridge.ast_of(loop), on_ast(bridge, events))


def on_ast(bridge: Bridge, events: dict) -> dict:
    return {bridge.ast_of(node): found for node, found in events.items()}


def _where(bridge: Bridge, stmt) -> cst.CSTNode:
    """The ``finally`` of a ``try`` (the block that drops a value), or the ``with``."""
    node = bridge.cst_of(stmt)
    return node.finalbody if isinstance(node, (cst.Try, cst.TryStar)) else node


def statement_of(node: cst.CSTNode, parents) -> cst.CSTNode:
    """The statement an expression belongs to; a compound one where it stands in its header."""
    while not isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        node = parents[node]
    return node


def surely_run(node: cst.CSTNode, parents) -> bool:
    """Does ``node`` run whenever its statement does? Not in an arm of ``a if c else b``, after
    the first operand of ``and``/``or``, in a ``case`` guard or an ``except`` clause's type."""
    while not isinstance(node, cst.BaseSmallStatement):
        parent = parents[node]
        if isinstance(parent, cst.IfExp) and node is not parent.test:
            return False
        if isinstance(parent, cst.BooleanOperation) and node is parent.right:
            return False
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
            return True  # decorators, defaults, bases: evaluated where the statement runs
        if isinstance(parent, cst.With):
            return any(node is item for item in parent.items)
        if isinstance(parent, cst.BaseCompoundStatement):
            return type(parent) in _HEADERS and node is getattr(parent, _HEADERS[type(parent)])
        node = parent
    return True


_HEADERS = {cst.If: "test", cst.For: "iter", cst.Match: "subject"}
