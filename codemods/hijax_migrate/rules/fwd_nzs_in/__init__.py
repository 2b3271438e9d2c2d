"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import ast

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods, positional
from ..base import Rule


def lacks_nzs_in(node: ast.ClassDef, kind: Kind) -> bool:
    """As ``rewrite.lacks_nzs_in``, True or None (a warning): the signature
    against the inputs' count where it is known, else the first name."""
    found = methods(node)
    fwd = found.get("vjp_fwd")
    if fwd is None:
        return False
    skip = 0 if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fwd.decorator_list) else 1
    names = positional(fwd)[skip:]
    least = len(positional(fwd)) - len(fwd.args.defaults) - skip
    count = _input_count(found)
    if count is None or fwd.args.vararg is not None:
        return not names or "nz" not in names[0].lower()
    takes = [least <= n <= len(names) for n in (count, count + 1)]
    if takes[0] != takes[1]:
        return takes[0]
    return not any(takes) or not names or "nz" not in names[0].lower()


def _input_count(found: dict[str, ast.FunctionDef]) -> int | None:
    """As ``shape.class_shape``'s: the first ``self.in_avals = (...)``/``[...]``
    in ``__init__``, else ``expand``'s required parameters."""
    init, expand = found.get("__init__"), found.get("expand")
    avals = sorted((n for n in ast.walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1
                    and _is_self_in_avals(n.targets[0]) and isinstance(n.value, (ast.Tuple, ast.List))),
                   key=lambda n: (n.lineno, n.col_offset)) if init is not None else []
    if avals:
        return len(avals[0].value.elts)
    if expand is not None and expand.args.vararg is None:
        return len(positional(expand)) - len(expand.args.defaults) - 1
    return None


def _is_self_in_avals(target: ast.expr) -> bool:
    return (isinstance(target, ast.Attribute) and target.attr == "in_avals"
            and isinstance(target.value, ast.Name) and target.value.id == "self")


RULE = Rule(
    "HJX002", "fwd-nzs-in", (0, 9, 0),
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
    rewrite=f"{__name__}.rewrite:FwdNzsIn",
    class_test=lacks_nzs_in,
)
