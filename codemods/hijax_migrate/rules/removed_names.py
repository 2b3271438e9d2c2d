"""HJX013: names jax 0.11.1 removed from the hijax module (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedNameProvider

from ..context import RuleTransformer
from ..project import HIJAX_MODULES
from ..registry import rule

def hijax_imports(node: cst.ImportFrom, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that ``from <hijax module> import ...`` imports."""
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return []
    if get_full_name_for_node(node.module) not in HIJAX_MODULES:
        return []
    return [alias.name.value for alias in node.names if isinstance(alias.name, cst.Name) and alias.name.value in names]


REMOVED = ("AvalQDD", "MutableHiType", "AvalMutableQDD")
_QUALIFIED = {f"{module}.{name}": name for module in HIJAX_MODULES for name in REMOVED}


@rule(
    "HJX013", "removed-mutable-types", (0, 11, 1),
    "Reported, as an error: each use of `AvalQDD`, `MutableHiType` or `AvalMutableQDD`, which "
    "jax 0.11.1 removed from `jax.experimental.hijax` with its mutable hijax types; nothing "
    "replaces them.",
    before="""
import jax.experimental.hijax as hjx

def make(ty, qdd):
    return hjx.AvalQDD(ty, qdd)
""",
    after="""
import jax.experimental.hijax as hjx

def make(ty, qdd):
    return hjx.AvalQDD(ty, qdd)
""",
    needs=("QDD", "MutableHiType"),
)
class RemovedNames(RuleTransformer):
    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def visit_Module(self, node: cst.Module) -> None:
        self._lines: set[tuple[int, str]] = set()

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        for name in hijax_imports(node, REMOVED):
            self._report(self.prims.line(node), name)

    def visit_Name(self, node: cst.Name) -> None:
        self._check(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._check(node)

    def _check(self, node: cst.CSTNode) -> None:
        names = self.get_metadata(QualifiedNameProvider, node, set())
        removed = next((_QUALIFIED[q.name] for q in names if q.name in _QUALIFIED), None)
        if removed:
            self._report(self.prims.line(node), removed)

    def _report(self, line: int, removed: str) -> None:
        if (line, removed) not in self._lines:  # a name and its module are one use
            self._lines.add((line, removed))
            self.skipped(line, None, f"`{removed}` was removed from jax's hijax module in jax 0.11.1, "
                         "with its mutable types (quasi-dynamic data); nothing replaces it: keep "
                         "this code on jax 0.11.0, or port it to immutable `HiType`s by hand")
