"""HJX013: names jax 0.11.1 removed from the hijax module (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from ...analysis.project import HIJAX_MODULES
from ...analysis.source_order import by_name
from ..context import RuleTransformer
from . import NAMES, RULE


def hijax_imports(node: cst.ImportFrom, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that ``from <hijax module> import ...`` imports."""
    return [alias.name.value for alias in hijax_aliases(node, names)]


def hijax_aliases(node: cst.ImportFrom, names: tuple[str, ...]) -> list[cst.ImportAlias]:
    """The aliases of ``from <hijax module> import ...`` importing one of ``names``."""
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return []
    if get_full_name_for_node(node.module) not in HIJAX_MODULES:
        return []
    return [alias for alias in node.names if isinstance(alias.name, cst.Name) and alias.name.value in names]


REMOVED = NAMES


class RemovedNames(RuleTransformer):
    rule = RULE
    TRAIL = True  # where a name stands: an attribute's, a keyword's, an import's have no qualified name
    REMOVED = REMOVED  # what a subclass reports instead, with its own message

    def visit_Module(self, node: cst.Module) -> None:
        self._lines: set[tuple[int, str]] = set()
        self._qualified = {f"{module}.{name}": name for module in HIJAX_MODULES for name in self.REMOVED}

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        for alias in hijax_aliases(node, self.REMOVED):  # each at its own line
            self._report(self.prims.line(alias), alias.name.value)

    def visit_Name(self, node: cst.Name) -> None:
        self._check(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._check(node)

    def _check(self, node: cst.CSTNode) -> None:
        if not self.may_be_named(node, self.REMOVED):
            return
        names = by_name(self.qualified_names(node))
        removed = next((self._qualified[q.name] for q in names if q.name in self._qualified), None)
        if removed:
            self._report(self.prims.line(node), removed)

    def _report(self, line: int, removed: str) -> None:
        if (line, removed) not in self._lines:  # a name and its module are one use
            self._lines.add((line, removed))
            self.skipped(line, None, self.message(removed))

    def message(self, removed: str) -> str:
        return (
            f"`{removed}` was removed from jax's hijax module in jax 0.11.1, with its mutable "
            "types (quasi-dynamic data); nothing replaces it: keep this code on jax 0.11.0, "
            "or port it to immutable `HiType`s by hand"
        )
