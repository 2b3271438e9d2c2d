"""HJX007: jax 0.11.0's single derived-rule helpers become 0.11.1's pairs."""

from __future__ import annotations

import ast

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import single_targets
from ..base import Rule

# (first attribute, its 0.11.0 helper), (second attribute, its helper), the 0.11.1 pair
PAIRS = (
    (("lin", "linearize_from_jvp"), ("linearized", "apply_derived_linearization"), "linearize_from_jvp"),
    (("vjp_fwd", "vjp_fwd_from_jvp"), ("vjp_bwd_retval", "transpose_jvp"), "vjp_from_jvp"),
    (("vjp_fwd", "vjp_fwd_from_lin"), ("vjp_bwd_retval", "transpose_linearized"), "vjp_from_lin"),
)
HALVES = frozenset(half for first, second, _ in PAIRS for half in (first, second))  # (attribute, helper)
_ATTRIBUTES = frozenset(attribute for attribute, _ in HALVES)


def assigns_a_half(node: ast.ClassDef, kind: Kind) -> bool:
    """``lin = ...``, ``vjp_fwd = ...`` and the like, one name alone."""
    return bool(single_targets(node) & _ATTRIBUTES)


RULE = Rule(
    "HJX007",
    "derived-rule-pairs",
    (0, 11, 1),
    "jax 0.11.0's derived rules assigned one by one (`vjp_fwd = vjp_fwd_from_jvp`, "
    "`vjp_bwd_retval = transpose_jvp`, `lin = linearize_from_jvp`, `linearized = "
    "apply_derived_linearization`, `vjp_fwd = vjp_fwd_from_lin`, `vjp_bwd_retval = "
    "transpose_linearized`) become 0.11.1's pairs, imports included; a half without its partner "
    "is reported at its class, any other use of a removed helper by HJX015.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp

class Op(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp
""",
    after="""
from jax.experimental.hijax import vjp_from_jvp, VJPHiPrimitive

class Op(VJPHiPrimitive):
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp
""",
    needs=tuple(helper for (_, one), (_, other), _ in PAIRS for helper in (one, other)),
    kinds=PRIMITIVE_KINDS,
    rewrite=f"{__name__}.rewrite:DerivedPairs",
    class_test=assigns_a_half,
)
