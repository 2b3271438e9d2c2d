"""HJX013: names jax 0.11.1 removed from the hijax module (reported)."""

from __future__ import annotations

import ast

from ...analysis.line_walk import over_lines, word_lines
from ..ast_tests import names_one_of
from ..base import Rule

NAMES = ("AvalQDD", "MutableHiType", "AvalMutableQDD")  # the rewrite's REMOVED


def names_a_removed_type(tree: ast.Module, code: str) -> bool:
    """A superset of what the rewrite reports: one of the names as a name, an
    attribute or an imported name (an alias is imported by its name), each on
    a line naming it: only those lines' nodes are walked."""
    return any(names_one_of(node, NAMES) for node in over_lines(tree, word_lines(code, NAMES)))


RULE = Rule(
    "HJX013",
    "removed-mutable-types",
    (0, 11, 1),
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
    module_test=names_a_removed_type,
)
