"""HJX012: jax 0.12's ``remat`` returns three values (reported)."""

from __future__ import annotations

import ast

from ...analysis.namespace import DEF
from ...analysis.returns import tuple_sizes
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods
from ..base import Rule


def old_remat_rule(node: ast.ClassDef) -> tuple[ast.FunctionDef, set[int | None]] | None:
    """The rule's one decision, read by its triage test and its rewrite: the class's
    ``remat`` and how many values each of its returns gives (None in it: not a
    visible tuple), where one may not give three; None: no ``remat``, or three each time."""
    func = methods(node).get("remat")
    if func is None:
        return None
    sizes = tuple_sizes(func)
    return None if sizes == {3} else (func, sizes)


def old_remat(node: ast.ClassDef, kind: Kind) -> bool:
    return old_remat_rule(node) is not None


RULE = Rule(
    "HJX012",
    "remat-override",
    (0, 12, 0),
    "Reported: a `remat(self, trace, *args)` override returned `(out, prim)` up to jax 0.11.2 "
    "and must return `(out, residuals, recompute)` on 0.12 (an error when it visibly returns "
    "two values, a note when the tool cannot see how many).",
    before="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def remat(self, trace, *args):
        return self(*args), self
""",
    after="""
from jax.experimental.hijax import HiPrim

class Op(HiPrim):
    def remat(self, trace, *args):
        return self(*args), self
""",
    needs=("def remat",),
    kinds=PRIMITIVE_KINDS,
    binds={"remat": frozenset({DEF})},  # the forms it decides
    rewrite=f"{__name__}.rewrite:RematOverride",
    class_test=old_remat,
)
