"""Finding the hijax primitives of one parsed module.

The module summary names every class as Python's ``__qualname__`` does and
keeps its statement; the project index resolves its bases across files.
Rules then ask "what kind of class is this?" by node.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import MetadataWrapper

from . import attr_reach
from .bridge import Bridge
from .cst_blocks import blocks_in
from .deflines import DefLines
from .nodes import positions, sole_target
from .project import Project
from .scopes import ClassInfo, Kind, ModuleSummary
from .summary import bridge_of


class PrimitiveMap:
    def __init__(
        self,
        wrapper: MetadataWrapper,
        kinds: dict[cst.ClassDef, Kind],
        qualnames: dict[cst.ClassDef, str],
        infos: dict[cst.ClassDef, ClassInfo] | None = None,
    ):
        self.wrapper = wrapper  # the analysed tree, with its resolved metadata
        self.kinds = kinds
        self.qualnames = qualnames
        self.infos = infos or {}  # each class's summary: its family is found from it
        # module-level ``Name = type("Name", bases, {...})`` statements -> the class each makes
        self.factories: dict[cst.SimpleStatementLine, ClassInfo] = {}
        self.module_scope = None  # what the module binds: names at module level resolve there
        self.code: str | None = None  # the text of the tree, where the caller has it
        self._def_lines: DefLines | None = None
        self._bridge: Bridge | None = None
        self.origin = None  # line of this tree -> line of the file, after other rules' rewrites
        self.facts: dict[str, object] = {}  # facts of this tree a rule asks for each class: made once

    @classmethod
    def build(
        cls,
        wrapper: MetadataWrapper,
        summary: ModuleSummary,
        nodes: list[cst.ClassDef],
        project: Project,
        bridge: Bridge | None = None,
    ) -> PrimitiveMap:
        """``bridge``: the tree's statements with ``ast``'s, where the caller paired them."""
        pairs = list(zip(summary.classes, nodes))
        prims = cls(
            wrapper,
            {node: project.class_kind(info) for info, node in pairs},
            {node: info.qualname for info, node in pairs},
            {node: info for info, node in pairs},
        )
        prims.module_scope = summary.scope
        prims._bridge = bridge
        prims.factories = _factory_statements(wrapper.module, summary)
        return prims

    def line(self, node: cst.CSTNode) -> int:
        """The line of a node of this tree (of a class or function: its name's),
        in the file as it is: every line a rule names is one the user can find.

        Positions are resolved on first use only: a file with nothing to
        rewrite never pays for them.
        """
        line = self._lines().line(node) if self.code is not None else None  # a class or function: from ast
        if line is None:
            position = positions(self.wrapper).get(getattr(node, "name", node))
            line = position.start.line if position else 0
        return self.file_line(line)

    def ast_line(self, node: ast.AST) -> int:
        """The line of a node of ``bridge``'s ``ast`` tree (of a def: its name's), in the file as
        it is; statements stand on their lines in older text too (``summary.ast_of``)."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return self.line(self.bridge.cst_of(node))
        return self.file_line(node.lineno)

    @property
    def bridge(self) -> Bridge:
        """The tree's statements paired with ``ast``'s, made on first use where not given."""
        if self._bridge is None:
            module = self.wrapper.module
            self._bridge = bridge_of(module, self.code if self.code is not None else module.code)
        return self._bridge

    def file_line(self, line: int) -> int:
        """A line of this tree, in the file as it is (after other rules' rewrites)."""
        return self.origin(line) if self.origin else line

    def _lines(self) -> DefLines:
        self._def_lines = self._def_lines or DefLines(self.bridge, self.code)
        return self._def_lines

    def holding(self, names: set[str]) -> list[cst.CSTNode] | None:
        """The module's statements that may hold ``.name`` for ``names``
        (None: any may)."""
        if self.code is None:
            return None
        return attr_reach.holding(self.wrapper.module, self.code, self._lines().spans(), names)

    def naming(self, word: str) -> list[cst.CSTNode] | None:
        """The module's statements whose text names ``word`` (None: any may)."""
        if self.code is None:
            return None
        return attr_reach.naming(self.wrapper.module, self.code, self._lines().spans(), word)


def _factory_statements(module: cst.Module, summary: ModuleSummary) -> dict[cst.SimpleStatementLine, ClassInfo]:
    """Each module-level statement ``Name = type(...)`` the summary reads as a class, with
    that class: only where nothing else binds ``Name`` in the module (one class to a name)."""
    found = {}
    for stmt in module.body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        target = sole_target(small)
        bindings = summary.scope.bindings.get(target.value, []) if isinstance(target, cst.Name) else []
        if len(bindings) == 1 and bindings[0][0] == "class" and bindings[0][1].factory:
            found[stmt] = bindings[0][1]
    return found


def around(module: cst.Module, targets: set[cst.CSTNode]) -> set[cst.CSTNode]:
    """``targets`` and the nodes on the way to them from ``module``; only
    statements that hold statements are searched (a class is a statement),
    and the module's own statements (a simple one holds none)."""
    keep: set[cst.CSTNode] = {statement for statement in module.body if statement in targets}
    stack: list[tuple[cst.CSTNode, tuple]] = [(module, ())]
    while stack:
        node, path = stack.pop()
        if node in targets:
            keep.update(path)
            keep.add(node)
            continue
        path += (node,)
        stack.extend((child, path) for child in blocks_in(node))
    return keep
