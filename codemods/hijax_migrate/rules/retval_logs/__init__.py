"""HJX004: the ``vjp_bwd_retval_logs = True`` flag becomes a method (jax 0.11.2)."""

from __future__ import annotations

import ast

from ...analysis.namespace import ANNOTATED, ASSIGN, CHAINED, DEF, ON_BASE
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import assigned, methods
from ..base import Rule

FLAG = "vjp_bwd_retval_logs"


def sets_flag(node: ast.ClassDef, kind: Kind) -> bool:
    return FLAG in assigned(node)


def flag_set_elsewhere(code: str, tree: ast.Module, classes: list, scope, project) -> bool:
    """A primitive with a ``vjp_bwd_retval`` whose flag a base sets (in another file too)."""
    if "vjp_bwd_retval" not in code:
        return False
    from ...analysis.families import defining, is_method

    setters = [
        defining(project, info, FLAG) if kind.is_primitive and "vjp_bwd_retval" in methods(node) else None
        for node, kind, info in classes
    ]
    return any(setter is not None and not is_method(setter[1]) for setter in setters)


RULE = Rule(
    "HJX004",
    "retval-logs-method",
    (0, 11, 2),
    "`vjp_bwd_retval_logs = True` with a `vjp_bwd_retval` returning `(cotangents, logs)`: "
    "from jax 0.11.2 the flag goes and the method is named `vjp_bwd_retval_logs`.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):
    vjp_bwd_retval_logs = True

    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):

    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}
""",
    needs=("vjp_bwd_retval", FLAG),  # the flag may be set in a base, in another file,
    kinds=PRIMITIVE_KINDS,
    # the forms it decides, on a primitive and on a base one inherits (``rewrite._setter``: the flag
    # set there is read for the primitive, a method there is 0.11.2's API)
    binds={
        "vjp_bwd_retval_logs": frozenset(
            {DEF, ASSIGN, ANNOTATED, CHAINED} | {f + ON_BASE for f in (DEF, ASSIGN, ANNOTATED, CHAINED)}
        )
    },
    rewrite=f"{__name__}.rewrite:RetvalLogsMethod",
    class_test=sets_flag,
    family_test=flag_set_elsewhere,
)
