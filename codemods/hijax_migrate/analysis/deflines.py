"""The lines of class and function statements, read from ``ast``.

Rules name the line of the class or method they rewrite. libcst resolves
positions with a code generation of the whole module, several times the cost
of ``ast``'s parse, which has them. The i-th class or function statement of
the libcst tree, in source order, is the i-th of ``ast``'s; a line is only
taken where the statement's name stands on its keyword's line, else libcst
is asked (``line`` returns None).
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from ..core.stmts import statements
from ..sources.parse import python_tree
from . import attr_reach

_AST_DEFS = {ast.ClassDef: cst.ClassDef, ast.FunctionDef: cst.FunctionDef, ast.AsyncFunctionDef: cst.FunctionDef}


class DefLines:
    def __init__(self, module: cst.Module, code: str):
        self._module, self._code = module, code
        self._lines: dict[cst.CSTNode, int] | None = None
        self._spans: list[list[int]] | None = None
        self._extents: dict[cst.CSTNode, tuple[int, int]] = {}
        self._by_start: dict[tuple[int, int], cst.CSTNode] = {}  # ast's (line, column) of a def -> its node

    def spans(self) -> list[list[int]] | None:
        """The line spans of the module's statements (see ``attr_reach.spans``);
        None where ast cannot tell them."""
        self._read()
        return self._spans

    def line(self, node: cst.CSTNode) -> int | None:
        """The line of ``node``'s name, for a class or function of the tree;
        of its keyword, for an import at the top level (a rename of a base
        names the import it edits)."""
        if not isinstance(node, (cst.ClassDef, cst.FunctionDef, cst.Import, cst.ImportFrom)):
            return None
        self._read()
        return self._lines.get(node)

    def text(self, node: cst.CSTNode) -> str | None:
        """The text of a class or function statement of the tree, from its
        keyword's line to its last (None where ast cannot tell)."""
        self._read()
        extent = self._extents.get(node)
        if extent is None:
            return None
        return "\n".join(self._code.split("\n")[extent[0] - 1 : extent[1]])

    def node_of(self, stmt: ast.stmt) -> cst.CSTNode | None:
        """The class or function statement of the tree that ``ast``'s ``stmt`` is
        (``stmt`` of a parse of the same text); None where ast cannot tell."""
        self._read()
        return self._by_start.get((stmt.lineno, stmt.col_offset))

    def _read(self) -> None:
        """One parse by ``ast`` for both (``python_tree``: the parse triage made, if the last)."""
        if self._lines is not None:
            return
        self._lines = {}
        if "\r" in self._code:  # ast and libcst might count lines differently: libcst decides
            return
        try:
            tree = python_tree(self._code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        self._spans = attr_reach.spans(tree.body)
        self._lines = {**self._index(tree), **self._top_imports(tree)}

    def _index(self, tree: ast.Module) -> dict[cst.CSTNode, int]:
        defs = sorted((n for n in statements(tree) if type(n) in _AST_DEFS), key=lambda n: (n.lineno, n.col_offset))
        nodes = list(_cst_defs(self._module))
        if len(defs) != len(nodes):
            return {}
        lines = self._code.split("\n")
        found = {}
        for stmt, node in zip(defs, nodes):
            if _AST_DEFS[type(stmt)] is not type(node) or stmt.name != node.name.value:
                self._extents, self._by_start = {}, {}
                return {}  # not the same statements: libcst decides every line
            self._extents[node] = (stmt.lineno, stmt.end_lineno)
            self._by_start[stmt.lineno, stmt.col_offset] = node
            if _names_on_its_line(lines[stmt.lineno - 1], stmt):
                found[node] = stmt.lineno
        return found

    def _top_imports(self, tree: ast.Module) -> dict[cst.CSTNode, int]:
        """The lines of the imports among the module's own statements: its
        i-th statement is ``ast``'s i-th (a line of several, one each)."""
        found, others = {}, iter(tree.body)
        for statement in self._module.body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else (statement,):
                stmt = next(others, None)
                if stmt is None or (
                    isinstance(small, (cst.Import, cst.ImportFrom)) and type(stmt).__name__ != type(small).__name__
                ):
                    return {}  # not the same statements: libcst decides
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    found[small] = stmt.lineno
        return found if next(others, None) is None else {}


_KEYWORD = re.compile(r"(async\s+)?(def|class)\s+")
_BOUNDARY = re.compile(r"\b")


def _names_on_its_line(line: str, stmt: ast.stmt) -> bool:
    """``def name``/``class name`` from the statement's column (in bytes).
    Fixed patterns: one pattern per name would outgrow ``re``'s cache."""
    rest = line.encode()[stmt.col_offset :].decode(errors="replace")
    keyword = _KEYWORD.match(rest)
    end = keyword.end() + len(stmt.name) if keyword else 0
    return keyword is not None and rest.startswith(stmt.name, keyword.end()) and _BOUNDARY.match(rest, end) is not None


# Statements that hold statements; expressions and simple statements hold none.
_BLOCKS = (
    cst.Module,
    cst.BaseCompoundStatement,
    cst.BaseSuite,
    cst.Else,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Finally,
    cst.MatchCase,
)


_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # in source order
_HAS: dict[type, tuple[str, ...]] = {}  # node type -> the fields of ``_FIELDS`` it has
# node type -> is it one of ``_BLOCKS`` (False), or with simple statement lines (True)?
_IS: dict[bool, dict[type, bool]] = {False: {}, True: {}}


def blocks_in(node: cst.CSTNode, lines: bool = False) -> list[cst.CSTNode]:
    """The children of ``node`` that are or hold statements, in source order
    (read from their fields: libcst's ``children`` visits every child);
    with ``lines``, simple statement lines too. Types are asked once each
    (an ``isinstance`` of libcst's abstract classes is slow)."""
    fields = _HAS.get(type(node))
    if fields is None:
        fields = _HAS[type(node)] = tuple(name for name in _FIELDS if hasattr(node, name))
    known, found = _IS[lines], []
    for name in fields:
        value = getattr(node, name)
        for child in value if isinstance(value, (list, tuple)) else (value,):
            kind = type(child)
            block = known.get(kind)
            if block is None:
                block = known[kind] = issubclass(kind, (*_BLOCKS, cst.SimpleStatementLine) if lines else _BLOCKS)
            if block:
                found.append(child)
    return found


def small_statements(module: cst.Module, kind: type) -> list:
    """The simple statements of ``kind`` (an import, an assignment) anywhere in
    ``module``, in source order: only statements are walked, as expressions
    hold none (``findall`` walks every node)."""
    found, stack = [], [module]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            found.extend(small for small in node.body if isinstance(small, kind))
        else:
            stack.extend(reversed(blocks_in(node, lines=True)))
    return found


def _cst_defs(module: cst.Module):
    """Class and function statements, in source order."""
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            yield node
        stack.extend(reversed(blocks_in(node)))
