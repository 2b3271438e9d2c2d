"""HJX009: jax 0.8.0's constructor call becomes attribute assignments (0.8.1)."""

from __future__ import annotations

import ast

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods
from ..base import Rule


def init_passes_arguments(node: ast.ClassDef, kind: Kind) -> bool:
    """``__init__`` calls some ``__init__`` with arguments (jax 0.8.0's constructor)."""
    init = methods(node).get("__init__")
    return init is not None and any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "__init__"
        and (len(call.args) > (0 if isinstance(call.func.value, ast.Call) else 1) or call.keywords)
        for call in ast.walk(init)
    )


RULE = Rule(
    "HJX009",
    "init-attributes",
    (0, 8, 1),
    "jax 0.8.0's `super().__init__(in_avals, out_aval, **params)` becomes `self.in_avals = ...`, "
    "`self.out_aval = ...`, `self.params = dict(...)`, then `super().__init__()`.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Pow(VJPHiPrimitive):
    def __init__(self, aval, power):
        super().__init__((aval,), aval, power=power)
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Pow(VJPHiPrimitive):
    def __init__(self, aval, power):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = dict(power=power)
        super().__init__()
""",
    needs=("HiPrim",),  # the base's name: NewstyleHiPrimitive, VJPHiPrimitive, HiPrim
    kinds=PRIMITIVE_KINDS,
    rewrite=f"{__name__}.rewrite:InitAttributes",
    class_test=init_passes_arguments,
)
