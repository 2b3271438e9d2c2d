"""HJX009: jax 0.8.0's constructor call becomes attribute assignments (0.8.1)."""

from __future__ import annotations

import libcst as cst

from ...analysis.families import ancestors, first_definer
from ...analysis.project import HIJAX_MODULES
from ..context import NOTE, RuleTransformer
from . import RULE
from .init_call import base_init_call, init_calls

_BASES = {
    f"{module}.{name}" for module in HIJAX_MODULES for name in ("NewstyleHiPrimitive", "VJPHiPrimitive", "HiPrim")
}
_BY_HAND = (
    "set `self.in_avals`, `self.out_aval` and `self.params` (a dict), then call `super().__init__()` with no arguments"
)


class InitAttributes(RuleTransformer):
    rule = RULE
    TRAIL = True

    def visit_Module(self, node: cst.Module) -> None:
        # Its edits are lines of a primitive's ``__init__`` (``_owner``): the visit walks to those classes only.
        self.focus = {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive}

    def _enclosing(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The nearest function or class around ``node``."""
        node = self.parent_of(node)
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            node = self.parent_of(node)
        return node

    def _owner(self, line: cst.SimpleStatementLine) -> cst.ClassDef | None:
        """The primitive whose ``__init__`` this line is directly in."""
        func = self._enclosing(line)
        if not (isinstance(func, cst.FunctionDef) and func.name.value == "__init__"):
            return None
        cls = self._enclosing(func)
        kind = self.prims.kinds.get(cls) if isinstance(cls, cst.ClassDef) else None
        return cls if kind is not None and kind.is_primitive else None

    def _base_names(self, cls: cst.ClassDef) -> set[str] | None:
        """The qualified names of its only base (None: several bases)."""
        bases = [arg for arg in cls.bases if arg.keyword is None]
        if len(bases) != 1:
            return None
        return {q.name for q in self.qualified_names(bases[0].value)}

    def _project_class(self, name: str) -> bool:
        """A class of the tree that has an ``__init__`` of the project's, its own or
        a tree base's (one without reaches jax's: not decided here)."""
        infos = [
            self.prims.infos[node]
            for node, qualname in self.prims.qualnames.items()
            if qualname == name and node in self.prims.infos
        ]
        module, _, attr = name.rpartition(".")
        summary = self.project.summary(module) if module and not infos else None
        if summary is not None:
            infos = [b[1] for b in summary.scope.bindings.get(attr, ()) if b[0] == "class"]
        return any(first_definer([info, *ancestors(self.project, info)], "__init__") is not None for info in infos)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if not init_calls(original_node):
            return updated_node  # no `__init__` call: where the line stands is never asked
        cls = self._owner(original_node)
        call = base_init_call(original_node, self.qualified_names) if cls is not None else None
        if call is None or not call.passes_arguments:
            return updated_node
        line, names = self.prims.line(original_node), self._base_names(cls)
        if names and any(self._project_class(name) for name in names):
            return updated_node
        if names is None or not names & _BASES:
            self.skipped(
                line,
                cls,
                "passes arguments to a base `__init__` through several or "
                f"indirect bases; if it reaches jax's (0.8.1 on): {_BY_HAND}",
                NOTE,
            )
            return updated_node
        problem = call.problem()
        if problem is not None:
            self.skipped(line, cls, f"`__init__` call {problem}: {_BY_HAND}")
            return updated_node
        self.changed(line, cls, "set `in_avals`, `out_aval`, `params` before `super().__init__()`")
        return cst.FlattenSentinel(call.statements(updated_node))
