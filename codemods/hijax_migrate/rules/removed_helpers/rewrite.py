"""HJX015: jax 0.11.0's derived-rule helpers still named after HJX007 (reported)."""

from __future__ import annotations

import libcst as cst

from ...analysis.cst_blocks import own_smalls
from ...analysis.project import HIJAX_MODULES
from ..derived_pairs import HALVES
from ..derived_pairs.rewrite import single_helper
from ..removed_names.rewrite import RemovedNames
from . import INSTEAD, LINEARIZE, RULE

_LINEARIZE = {f"{module}.{LINEARIZE}" for module in HIJAX_MODULES}


class RemovedHelpers(RemovedNames):
    rule = RULE
    REMOVED = tuple(INSTEAD)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._answered: set[cst.CSTNode] = set()  # lone halves reported at their class (HJX007)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        if not (self.context.halves_reported and kind is not None and kind.is_primitive):
            return

        for small, holder in own_smalls(node):  # not entered yet: their line, the body
            helper = single_helper(small, self.qualified_names, *dict.fromkeys((holder, node.body)))
            if helper and helper[:2] in HALVES:  # left by HJX007: a half without its partner
                self._answered.add(helper[2].value)

    def visit_Assign(self, node: cst.Assign) -> None:
        """``lin = linearize_from_jvp`` where HJX007 does not pair it (a mixin,
        ``Op.lin = ...``): since 0.11.1 ``lin`` holds the pair, which raises
        TypeError when jax calls it."""
        target = node.targets[0].target if len(node.targets) == 1 else None
        named = target.value if isinstance(target, cst.Name) else getattr(getattr(target, "attr", None), "value", None)
        if named != "lin" or node.value in self._answered:
            return
        names = self.qualified_names(node.value, node)
        if any(q.name in _LINEARIZE for q in names):
            self._report(self.prims.line(node.value), LINEARIZE)

    def _check(self, node: cst.CSTNode) -> None:
        if node not in self._answered:
            super()._check(node)

    def message(self, removed: str) -> str:
        if removed == LINEARIZE:
            return (
                f"`lin = {LINEARIZE}`: since jax 0.11.1 `{LINEARIZE}` is a pair of rules, and `lin` "
                f"would hold both (a TypeError when jax calls it): write `lin, linearized = {LINEARIZE}`"
            )
        pair = INSTEAD[removed]
        return (
            f"`{removed}` was removed from jax's hijax module in jax 0.11.1 (derived rules come "
            f"in pairs): import `{pair.rpartition(' ')[2]}` instead and write `{pair}` in the "
            "primitive's class body"
        )
