"""The reads of a renamed base, from the name model (``names``), where it
answers as libcst's scopes would: without their analysis of the module.

Sure when the old name is bound by module-level imports alone and read only
after them at module level, the new one by module-level hijax imports alone,
neither named in a string (libcst reads string annotations) nor read in an
f-string (their positions), and libcst's tree has as many reads as ``ast``'s.
Every read then may be each import: libcst's referents are those imports,
each read its access. Elsewhere (None) libcst's scopes decide.

Reads and attributes are paired with ``ast``'s in source order, which gives
their lines without libcst's positions (a code generation of the module).
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .bindings import Read
from .names import NameModel, import_qualified, is_builtin
from .project import HIJAX_MODULES

# A Name under these is no read: a name after a dot, an import's, a keyword's, a definition's.
_NOT_READ = (
    cst.ImportAlias,
    cst.AsName,
    cst.NameItem,
    cst.Param,
    cst.FunctionDef,
    cst.ClassDef,
    cst.Import,
    cst.ImportFrom,
)


class ModelReads:
    """``bindings.ScopeReads``'s answers, from the name model."""

    def __init__(self, reads: list[cst.Name], imports: int):
        self.reads, self.imports = reads, imports

    def of_import(self, node: cst.ImportFrom, bound: str) -> list[Read]:
        return [Read(name, self.imports, False) for name in self.reads]

    def import_shadowed(self, node: cst.ImportFrom) -> bool:
        return False

    def unbound(self, old: str) -> list[Read]:
        return [] if self.imports else [Read(name, 0, False) for name in self.reads]


def is_read(name: cst.Name, parents) -> bool:
    """Does libcst's scope analysis record ``name`` as a read (or a store)?"""
    node, parent = name, parents.get(name)
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return False
    while isinstance(parent, cst.Attribute):
        node, parent = parent, parents.get(parent)
    # A class pattern's keyword (``case C(Old=1)``) is a read to libcst's scopes, none to ``ast``'s:
    # counted, so that the counts differ and libcst's scopes decide.
    return not isinstance(parent, _NOT_READ) and not (
        isinstance(parent, (cst.MatchAs, cst.MatchStar, cst.MatchMappingElement))
    )


def model_reads(model: NameModel, old: str, new: str, reads: list[cst.Name]) -> ModelReads | None:
    """The reads of ``old`` (``reads``: libcst's, in source order), where the model is sure."""
    found = model.imported_only(old)
    news = model.imported_only(new)
    if found is None or news is None or is_builtin(old) or is_builtin(new):
        return None
    if any(not _hijax_import(b.statement) for b in news) or any(isinstance(b.statement, ast.Import) for b in found):
        return None
    if model.in_strings(old) or old in model.formatted or not model.read_after(old, found):
        return None
    if len(reads) != len(model.reads.get(old, ())):
        return None
    return ModelReads(reads, len(found))


def _hijax_import(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module in HIJAX_MODULES


def attribute_names(model: NameModel, node: cst.Attribute, parents) -> set[str] | None:
    """libcst's qualified names of an attribute chain (never an access itself,
    for a name no ``import a.b`` binds), where its head is bound by
    module-level imports alone (None: libcst decides). An import's own
    names have none: libcst's scopes never enter them."""
    full = get_full_name_for_node(node)
    if full is None or _in_import(node, parents):
        return set()
    head = full.partition(".")[0]
    found = model.imported_only(head)
    if found is None or any(
        isinstance(b.statement, ast.Import) and b.node.asname is None and f"{b.node.name}.".startswith(f"{full}.")
        for b in found
    ):
        return None  # ``import a.b.Old``: the chain itself may be what is read
    prefix = full
    while prefix:
        statements = [b.statement for b in found if _binds(b, prefix)]
        if statements:
            return {name for stmt in _unique(statements) for name in import_qualified(stmt, full)}
        if "." not in prefix:
            return {f"builtins.{prefix}"} if is_builtin(prefix) else set()
        prefix = prefix.rpartition(".")[0]
    return set()


def _in_import(node: cst.CSTNode, parents) -> bool:
    parent = parents.get(node)
    while isinstance(parent, cst.Attribute):
        parent = parents.get(parent)
    return isinstance(parent, (cst.Import, cst.ImportFrom, cst.ImportAlias))


def _binds(binding, prefix: str) -> bool:
    alias = binding.node
    if alias.asname:
        return alias.asname == prefix
    return alias.name == prefix or alias.name.startswith(f"{prefix}.")


def _unique(statements: list) -> list:
    seen, found = set(), []
    for stmt in statements:
        if id(stmt) not in seen:
            seen.add(id(stmt))
            found.append(stmt)
    return found


def paired_lines(nodes: list[cst.CSTNode], ast_nodes: list[ast.AST]) -> dict[cst.CSTNode, int]:
    """Each node's line, from ``ast``'s node at its place in source order (none where the counts differ)."""
    if len(nodes) != len(ast_nodes):
        return {}
    return {node: found.lineno for node, found in zip(nodes, ast_nodes)}


def import_lines(nodes: list[cst.ImportFrom], tree: list[ast.ImportFrom]) -> dict[cst.CSTNode, int]:
    """The lines of ``nodes`` (every ImportFrom of the module, in source order),
    where each is ``ast``'s at its place (same module and level)."""
    found = sorted(tree, key=lambda n: (n.lineno, n.col_offset))
    if len(found) != len(nodes) or any(
        len(node.relative) != stmt.level
        or (get_full_name_for_node(node.module) if node.module else None) != stmt.module
        for node, stmt in zip(nodes, found)
    ):
        return {}
    return {node: stmt.lineno for node, stmt in zip(nodes, found)}
