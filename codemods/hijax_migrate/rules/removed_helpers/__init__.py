"""HJX015: jax 0.11.0's derived-rule helpers still named after HJX007 (reported)."""

from __future__ import annotations

import ast

from ...analysis.ast_summary import dotted_name
from ...analysis.line_walk import over_lines, word_lines
from ..ast_tests import names_one_of
from ..base import Rule
from ..derived_pairs import PAIRS

LINEARIZE = "linearize_from_jvp"  # kept by 0.11.1, as a pair: a single ``lin = ...`` is wrong
# each helper 0.11.1 removed -> the pair that replaces it (linearize_from_jvp stays, as a pair)
INSTEAD = {
    helper: f"{first[0]}, {second[0]} = {pair}"
    for first, second, pair in PAIRS
    for helper in (first[1], second[1])
    if helper != pair
}


def names_a_removed_helper(tree: ast.Module, code: str) -> bool:
    """A superset: a name, an attribute or an imported name that is one of
    the helpers 0.11.1 removed (an alias is imported by its name), or
    ``linearize_from_jvp`` (by any name it is imported as) assigned to ``lin``
    alone, where since 0.11.1 it is a pair. jax 0.12's own ``lin, linearized
    = linearize_from_jvp`` and ``def _transpose_jvp`` are none of these. Each
    stands over a line naming a helper, ``lin`` or the import: only those are walked."""
    linearize, assigns = {LINEARIZE}, []
    for node in over_lines(tree, word_lines(code, [*INSTEAD, LINEARIZE, "lin"])):
        if names_one_of(node, INSTEAD):
            return True
        if isinstance(node, ast.ImportFrom):
            linearize |= {alias.asname for alias in node.names if alias.name == LINEARIZE and alias.asname}
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "lin" or isinstance(t, ast.Attribute) and t.attr == "lin"
            for t in node.targets
        ):
            assigns.append(node)
    return any((dotted_name(node.value) or "").rsplit(".", 1)[-1] in linearize for node in assigns)


RULE = Rule(
    "HJX015",
    "removed-derived-helpers",
    (0, 11, 1),
    "Reported, as an error: each import and use of jax 0.11.0's derived-rule helpers "
    "(`vjp_fwd_from_jvp`, `transpose_jvp`, `apply_derived_linearization`, `vjp_fwd_from_lin`, "
    "`transpose_linearized`) that HJX007 does not turn into a pair, in any module (a "
    "re-export, a module-level or function use): jax 0.11.1 removed them; the message names "
    "the pair to write instead. Also `lin = linearize_from_jvp` outside a primitive's class "
    "body (a mixin, `Op.lin = ...`): 0.11.1's `linearize_from_jvp` is a pair.",
    before="""
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp

__all__ = ["transpose_jvp", "vjp_fwd_from_jvp"]
""",
    after="""
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp

__all__ = ["transpose_jvp", "vjp_fwd_from_jvp"]
""",
    needs=(LINEARIZE, *INSTEAD),
    rewrite=f"{__name__}.rewrite:RemovedHelpers",
    module_test=names_a_removed_helper,
)
