"""HJX002: ``vjp_fwd(self, *args)`` written before jax 0.9 gains ``nzs_in``."""

from __future__ import annotations

import ast

from ...analysis.namespace import DEF
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..ast_tests import methods, positional
from ..base import Rule


def nzs_in_verdict(node: ast.ClassDef) -> bool | None:
    """Does the class's ``vjp_fwd`` lack ``nzs_in``? None: its signature cannot be
    judged; False where there is none. The rewrite reads this, triage too.

    jax calls ``vjp_fwd(nzs_in, *inputs)``: with the number of inputs known
    (``in_avals``, ``expand``), the signature says which call it accepts,
    whatever its first parameter is called. Only without it does the name
    decide.
    """
    found = methods(node)
    fwd = found.get("vjp_fwd")
    if fwd is None:
        return False
    skip = 0 if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fwd.decorator_list) else 1
    names = positional(fwd)[skip:]
    least = len(positional(fwd)) - len(fwd.args.defaults) - skip
    count = input_count(node)
    if count is None or fwd.args.vararg is not None:
        return not names or "nz" not in names[0].lower()
    takes = [least <= n <= len(names) for n in (count, count + 1)]
    if takes[0] != takes[1]:
        return takes[0]
    return None if not any(takes) or not names else "nz" not in names[0].lower()


def lacks_nzs_in(node: ast.ClassDef, kind: Kind) -> bool:
    """Triage's test: True where the rewrite may act or warn."""
    return nzs_in_verdict(node) is not False


def input_count(node: ast.ClassDef) -> int | None:
    """How many inputs the primitive takes: the length of the first
    ``self.in_avals = (...)``/``[...]`` in ``__init__``, else ``expand``'s
    required parameters; None: not known."""
    return _input_count(methods(node))


def _input_count(found: dict[str, ast.FunctionDef]) -> int | None:
    """``input_count`` of a class's methods."""
    init, expand = found.get("__init__"), found.get("expand")
    avals = (
        sorted(
            (
                n
                for n in ast.walk(init)
                if isinstance(n, ast.Assign)
                and len(n.targets) == 1
                and _is_self_in_avals(n.targets[0])
                and isinstance(n.value, (ast.Tuple, ast.List))
            ),
            key=lambda n: (n.lineno, n.col_offset),
        )
        if init is not None
        else []
    )
    if avals:
        return len(avals[0].value.elts)
    if expand is not None and expand.args.vararg is None:
        return len(positional(expand)) - len(expand.args.defaults) - 1
    return None


def _is_self_in_avals(target: ast.expr) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "in_avals"
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    )


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
