"""HJX012: jax 0.12's ``remat`` returns three values (reported)."""

from __future__ import annotations

import libcst as cst

from ..context import NOTE, RuleTransformer
from . import RULE, old_remat_rule

WRITE = (
    "return `(out, residuals, recompute)` with `recompute(residuals, *args)` giving the "
    "outputs again; full remat is `return self(*args), (), lambda _, *args: self(*args)`"
)


class RematOverride(RuleTransformer):
    rule = RULE

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        found = old_remat_rule(self.prims.bridge.ast_of(node)) if kind is not None and kind.is_primitive else None
        if found is None:
            return
        func, sizes = self.prims.bridge.cst_of(found[0]), found[1]
        if 2 in sizes:
            self.skipped(
                self.prims.line(func),
                node,
                f"`remat` returns `(out, prim)` as up to jax 0.11.2; jax 0.12 unpacks three values: {WRITE}",
            )
        else:  # not three each time, as far as the tool sees
            self.skipped(
                self.prims.line(func),
                node,
                f"overrides `remat`, whose result changed in jax 0.12; check that it returns three values: {WRITE}",
                NOTE,
            )
