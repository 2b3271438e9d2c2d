"""HJX012: jax 0.12's ``remat`` returns three values (reported)."""

from __future__ import annotations

import libcst as cst

from ...analysis.returns import own_returns
from ...analysis.shape import class_shape
from ..context import NOTE, RuleTransformer
from . import RULE

WRITE = (
    "return `(out, residuals, recompute)` with `recompute(residuals, *args)` giving the "
    "outputs again; full remat is `return self(*args), (), lambda _, *args: self(*args)`"
)


def _sizes(func: cst.FunctionDef) -> set[int | None]:
    """How many values each return gives (None: not a visible tuple)."""
    return {len(r.value.elements) if isinstance(r.value, cst.Tuple) else None for r in own_returns(func)}


class RematOverride(RuleTransformer):
    rule = RULE

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        func = class_shape(node).methods.get("remat") if kind is not None and kind.is_primitive else None
        if func is None:
            return
        sizes = _sizes(func)
        if 2 in sizes:
            self.skipped(
                self.prims.line(func),
                node,
                f"`remat` returns `(out, prim)` as up to jax 0.11.2; jax 0.12 unpacks three values: {WRITE}",
            )
        elif sizes != {3}:
            self.skipped(
                self.prims.line(func),
                node,
                f"overrides `remat`, whose result changed in jax 0.12; check that it returns three values: {WRITE}",
                NOTE,
            )
