"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import ast

from ...analysis.fwd_signature import input_count as count_inputs
from ...analysis.fwd_signature import lacks_nzs_in as lacks
from ...analysis.namespace import DEF
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods
from ..base import Rule


def nzs_in_verdict(node: ast.ClassDef) -> bool | None:
    """Does the class's ``vjp_fwd`` lack ``nzs_in``? None: its signature cannot be
    judged; False where there is none (``analysis.fwd_signature``). The rewrite
    reads this, triage too."""
    found = methods(node)
    return lacks(found.get("vjp_fwd"), found)


def lacks_nzs_in(node: ast.ClassDef, kind: Kind) -> bool:
    """Triage's test: True where the rewrite may act or warn."""
    return nzs_in_verdict(node) is not False


def input_count(node: ast.ClassDef) -> int | None:
    """How many inputs the primitive takes (``analysis.fwd_signature.input_count``)."""
    return count_inputs(methods(node))


RULE = Rule(
    "HJX002",
    "fwd-nzs-in",
    (0, 9, 0),
    "`vjp_fwd(self, *args)` from before jax 0.9 gains the `nzs_in` parameter "
    "(which inputs have non-zero tangents); `super().vjp_fwd(...)` calls in it pass it on.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * x, x
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x
""",
    needs=("vjp_fwd",),
    kinds=PRIMITIVE_KINDS,
    binds={"vjp_fwd": frozenset({DEF})},  # the forms it decides
    rewrite=f"{__name__}.rewrite:FwdNzsIn",
    class_test=lacks_nzs_in,
)
