"""HJX015: jax 0.11.0's derived-rule helpers still named after HJX007 (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import QualifiedNameProvider

from ..analysis.project import HIJAX_MODULES
from .derived_pairs import HALVES, PAIRS, single_helper
from .registry import rule
from .removed_names import RemovedNames

LINEARIZE = "linearize_from_jvp"  # kept by 0.11.1, as a pair: a single ``lin = ...`` is wrong
_LINEARIZE = {f"{module}.{LINEARIZE}" for module in HIJAX_MODULES}
# each helper 0.11.1 removed -> the pair that replaces it (linearize_from_jvp stays, as a pair)
INSTEAD = {helper: f"{first[0]}, {second[0]} = {pair}"
           for first, second, pair in PAIRS for helper in (first[1], second[1]) if helper != pair}


@rule(
    "HJX015", "removed-derived-helpers", (0, 11, 1),
    "Reported, as an error: each import and use of jax 0.11.0's derived-rule helpers "
    "(`vjp_fwd_from_jvp`, `transpose_jvp`, `apply_derived_linearization`, `vjp_fwd_from_lin`, "
    "`transpose_linearized`) that HJX007 does not turn into a pair, in any module (a "
    "re-export, a module-level or function use): jax 0.11.1 removed them; the message names "
    "the pair to write instead. Also `lin = linearize_from_jvp` outside a primitive's class "
    "body (a mixin, `Op.lin = ...`): 0.11.1's `linearize_from_jvp` is a pair.",
    before="""
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp

__all__ = ["transpose_jvp", "vjp_fwd_from_jvp"]
""",
    after="""
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp

__all__ = ["transpose_jvp", "vjp_fwd_from_jvp"]
""",
    needs=(LINEARIZE, *INSTEAD),
)
class RemovedHelpers(RemovedNames):
    REMOVED = tuple(INSTEAD)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._answered: set[cst.CSTNode] = set()  # lone halves HJX007 reported at their class
        self._hjx007 = "HJX007" in self.context.selected

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        if not (self._hjx007 and kind is not None and kind.is_primitive):
            return
        qualified = lambda value: self.get_metadata(QualifiedNameProvider, value, set())
        for stmt in node.body.body:
            helper = single_helper(stmt, qualified)
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
        names = self.get_metadata(QualifiedNameProvider, node.value, set())
        if any(q.name in _LINEARIZE for q in names):
            self._report(self.prims.line(node.value), LINEARIZE)

    def _check(self, node: cst.CSTNode) -> None:
        if node not in self._answered:
            super()._check(node)

    def message(self, removed: str) -> str:
        if removed == LINEARIZE:
            return (f"`lin = {LINEARIZE}`: since jax 0.11.1 `{LINEARIZE}` is a pair of rules, and `lin` "
                    f"would hold both (a TypeError when jax calls it): write `lin, linearized = {LINEARIZE}`")
        pair = INSTEAD[removed]
        return (f"`{removed}` was removed from jax's hijax module in jax 0.11.1 (derived rules come "
                f"in pairs): import `{pair.rpartition(' ')[2]}` instead and write `{pair}` in the "
                "primitive's class body")
