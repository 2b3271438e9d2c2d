"""Uses of hijax names newer than the target, imported (``from
jax.experimental.hijax import jvp_from_lin``) or read from the module
(``hjx.jvp_from_lin``): code already past the release it would be migrated to
(going backwards is not supported).

``analysis.newer_uses`` (from ``ast``) says whether there is any; only then is
the tree walked, for the node libcst names in the error (its text, its line):
an attribute's module read from the name model (``analysis.qualified``),
libcst's scopes only where the model is not sure."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import MetadataWrapper

from ..analysis.ast_summary import parse_ast
from ..analysis.bindings import hijax_from
from ..analysis.chains import HIJAX_MODULES
from ..analysis.dispatch import QuickVisitor
from ..analysis.qualified import Qualifier, model_of
from ..core.errors import MigrationError
from ..core.versions import ADDED_NAMES, Version, added_in, format_version
from .triage import imports_newer


class _Imports(QuickVisitor):
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


class _Attributes(QuickVisitor):
    """``module.name`` for a name of ``newer``, the module one of jax's hijax
    modules under any alias (resolved by scope), outside what may be a version
    switch: ``if``, ``try``, a conditional expression, ``and``/``or``; each
    with its ancestors, nearest first (where it stands decides its names)."""

    def __init__(self, newer: set[str]):
        super().__init__()
        self.newer, self.found, self._trail = newer, [], []

    def on_visit(self, node: cst.CSTNode) -> bool:
        entered = super().on_visit(node)
        self._trail.append(node)
        return entered

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._trail.pop()
        super().on_leave(original_node)

    def visit_Try(self, node) -> bool:
        return False

    visit_TryStar = visit_If = visit_IfExp = visit_BooleanOperation = visit_Try

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in self.newer:
            self.found.append((node, self._trail[::-1]))
        return True


def check_imports(tree: cst.Module, code: str, target: Version, line) -> None:
    """Raises MigrationError at the first import or attribute of a name newer
    than ``target``; ``line(node)``: a node's line."""
    newer = [name for name, since in ADDED_NAMES.items() if since > target and name in code]
    if not newer or not _may_import_newer(code, target):
        return
    visitor = _Imports()
    tree.visit(visitor)
    for node in visitor.found:
        module = get_full_name_for_node(node.module)
        for alias in node.names:
            name = cst.Module([]).code_for_node(alias.name)
            since = added_in(name, module) if name in newer else None
            if since is not None and since > target:
                raise MigrationError(
                    f"imports `{name}` (jax {format_version(since)}+), newer than "
                    f"the target jax {format_version(target)}: the code is already past it",
                    line(node),
                )
    _check_attributes(tree, code, set(newer), target, line)


def _may_import_newer(code: str, target: Version) -> bool:
    """Triage's answer from ``ast`` (a superset: any attribute of the name, at
    any depth): the scopes of a whole module (3 s for jax's hijax_test.py)
    are resolved only where it finds one."""
    try:
        return imports_newer(parse_ast(code), code, target)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # newer syntax than this Python's: libcst reads it


def _check_attributes(tree: cst.Module, code: str, newer: set[str], target: Version, line) -> None:
    """As the imports: ``hjx.jvp_from_lin`` (read only where a newer name is in the text)."""
    visitor = _Attributes(newer)
    tree.visit(visitor)  # the tree's own nodes: their lines
    qualifier = Qualifier(model_of(code), MetadataWrapper(tree, unsafe_skip_copy=True))
    for node, module, name in _hijax_names(visitor.found, qualifier):
        since = added_in(name, module)
        if since is not None and since > target:
            code = cst.Module([]).code_for_node(node)
            raise MigrationError(
                f"uses `{code}` (jax {format_version(since)}+), newer than the target "
                f"jax {format_version(target)}: the code is already past it",
                line(node),
            )


def _hijax_names(found: list, qualifier: Qualifier):
    """(node, module, name) for each qualified name of a found attribute that names it in a hijax module."""
    for node, ancestors in found:
        for qualified in qualifier.names(node, ancestors):
            module, _, name = qualified.name.rpartition(".")
            if name == node.attr.value and module in HIJAX_MODULES:
                yield node, module, name
