"""Imports of hijax names newer than the target: code already past the
release it would be migrated to (going backwards is not supported)."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from ..analysis.bindings import hijax_from
from ..core.errors import MigrationError
from ..core.versions import ADDED_NAMES, Version, added_in, format_version


class _Imports(cst.CSTVisitor):
    """hijax imports outside ``try`` and ``if``: those inside may be version switches."""

    def __init__(self):
        self.found: list[cst.ImportFrom] = []

    def visit_Try(self, node) -> bool:
        return False

    visit_TryStar = visit_If = visit_Try

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if hijax_from(node):
            self.found.append(node)
        return False


def check_imports(tree: cst.Module, code: str, target: Version, line) -> None:
    """Raises MigrationError at the first import of a name newer than ``target``;
    ``line(node)``: a node's line."""
    newer = [name for name, since in ADDED_NAMES.items() if since > target and name in code]
    if not newer:
        return
    visitor = _Imports()
    tree.visit(visitor)
    for node in visitor.found:
        module = get_full_name_for_node(node.module)
        for alias in node.names:
            name = cst.Module([]).code_for_node(alias.name)
            since = added_in(name, module) if name in newer else None
            if since is not None and since > target:
                raise MigrationError(f"imports `{name}` (jax {format_version(since)}+), newer than "
                                     f"the target jax {format_version(target)}: the code is already past it",
                                     line(node))
