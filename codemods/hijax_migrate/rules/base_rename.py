"""Renaming a hijax base class everywhere a file names it.

References resolve through ``QualifiedNameProvider``, so aliases and module
imports are followed and look-alike names elsewhere are never touched.
Code that already chooses between the two names by version (an ``A if v
else B``, a ``try``/``except ImportError``, an ``if`` on a version) is left
as it is: it is correct on both sides of the switch.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedNameProvider

from ..project import HIJAX_MODULES

_GUARD_ERRORS = ("ImportError", "ModuleNotFoundError", "AttributeError")


class BaseRename:
    """Mixin for RuleTransformer subclasses naming ``old_name``/``new_name``."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)
    old_name: str
    new_name: str

    def visit_Module(self, node: cst.Module) -> None:
        self._guards, self._guard_stack = 0, []
        self._qualified = {f"{module}.{self.old_name}" for module in HIJAX_MODULES}

    def _names_old(self, node: cst.CSTNode) -> bool:
        names = self.get_metadata(QualifiedNameProvider, node, set())
        return any(q.name in self._qualified for q in names)

    def _line(self, node: cst.CSTNode) -> int:
        return self.prims.line(node)

    # -- version switches are left alone: each guard node is judged once, on
    # the way in, and its verdict popped on the way out
    def _enter(self, is_guard: bool) -> None:
        self._guard_stack.append(is_guard)
        self._guards += is_guard

    def _leave(self, updated_node):
        self._guards -= self._guard_stack.pop()
        return updated_node

    def _is_guard(self, node: cst.CSTNode) -> bool:
        code = cst.Module([]).code_for_node
        if isinstance(node, cst.IfExp):
            return self.new_name in code(node)
        if isinstance(node, cst.BooleanOperation):  # ``getattr(...) or hijax.Old``: a probe
            return isinstance(node.operator, cst.Or)
        if isinstance(node, (cst.Try, cst.TryStar)):
            caught = " ".join(code(h.type) for h in node.handlers if h.type)
            return any(error in caught for error in _GUARD_ERRORS)
        return "version" in code(node.test).lower()

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._enter(self._is_guard(node))

    def leave_IfExp(self, original_node, updated_node):
        return self._leave(updated_node)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._enter(self._is_guard(node))

    def leave_BooleanOperation(self, original_node, updated_node):
        return self._leave(updated_node)

    def visit_Try(self, node) -> None:
        self._enter(self._is_guard(node))

    def leave_Try(self, original_node, updated_node):
        return self._leave(updated_node)

    def visit_If(self, node) -> None:
        self._enter(self._is_guard(node))

    def leave_If(self, original_node, updated_node):
        return self._leave(updated_node)

    # -- the renames
    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False  # handled whole in leave_ImportFrom

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        module = get_full_name_for_node(updated_node.module) if updated_node.module else None
        if (self._guards or updated_node.relative or module not in HIJAX_MODULES
                or isinstance(updated_node.names, cst.ImportStar)):
            return updated_node
        aliases, bound = [], set()
        for alias in updated_node.names:
            if alias.name.value == self.old_name:
                alias = alias.with_changes(name=cst.Name(self.new_name))
                if alias.asname and alias.asname.name.value == self.new_name:
                    alias = alias.with_changes(asname=None)
            name = alias.asname.name.value if alias.asname else alias.name.value
            if name not in bound:
                bound.add(name)
                aliases.append(alias)
        if aliases == list(updated_node.names):
            return updated_node
        if len(aliases) < len(updated_node.names) and updated_node.rpar is None:
            aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        self.changed(self._line(original_node), None, f"import of `{self.old_name}` now `{self.new_name}`")
        return updated_node.with_changes(names=aliases)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name):
        if updated_node.value != self.old_name or self._guards or not self._names_old(original_node):
            return updated_node
        self.changed(self._line(original_node), None, f"`{self.old_name}` is now `{self.new_name}`")
        return updated_node.with_changes(value=self.new_name)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        if updated_node.attr.value != self.old_name or self._guards or not self._names_old(original_node):
            return updated_node
        self.changed(self._line(original_node), None, f"`{self.old_name}` is now `{self.new_name}`")
        return updated_node.with_changes(attr=cst.Name(self.new_name))
