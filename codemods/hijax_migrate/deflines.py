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

from .stmts import statements

_AST_DEFS = {ast.ClassDef: cst.ClassDef, ast.FunctionDef: cst.FunctionDef, ast.AsyncFunctionDef: cst.FunctionDef}


class DefLines:
    def __init__(self, module: cst.Module, code: str):
        self._module, self._code = module, code
        self._lines: dict[cst.CSTNode, int] | None = None
        self._ast: ast.Module | None | bool = False  # False: not parsed yet; None: does not parse

    def ast(self) -> ast.Module | None:
        """``ast``'s tree of the code (None where it does not parse), parsed once."""
        if self._ast is False:
            try:
                self._ast = ast.parse(self._code)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._ast = None
        return self._ast

    def line(self, node: cst.CSTNode) -> int | None:
        """The line of ``node``'s name, for a class or function of the tree."""
        if not isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            return None
        if self._lines is None:
            self._lines = self._index()
        return self._lines.get(node)

    def _index(self) -> dict[cst.CSTNode, int]:
        tree = self.ast()
        if "\r" in self._code or tree is None:  # ast and libcst might count lines differently: libcst decides
            return {}
        defs = sorted((n for n in statements(tree) if type(n) in _AST_DEFS), key=lambda n: (n.lineno, n.col_offset))
        nodes = list(_cst_defs(self._module))
        if len(defs) != len(nodes):
            return {}
        lines = self._code.split("\n")
        found = {}
        for stmt, node in zip(defs, nodes):
            if _AST_DEFS[type(stmt)] is not type(node) or stmt.name != node.name.value:
                return {}  # not the same statements: libcst decides every line
            if _names_on_its_line(lines[stmt.lineno - 1], stmt):
                found[node] = stmt.lineno
        return found


def _names_on_its_line(line: str, stmt: ast.stmt) -> bool:
    """``def name``/``class name`` from the statement's column (in bytes)."""
    rest = line.encode()[stmt.col_offset:].decode(errors="replace")
    return re.match(rf"(async\s+)?(def|class)\s+{re.escape(stmt.name)}\b", rest) is not None


# Statements that hold statements; expressions and simple statements hold none.
_BLOCKS = (cst.Module, cst.BaseCompoundStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler,
           cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # in source order


def blocks_in(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The children of ``node`` that are or hold statements, in source order
    (read from their fields: libcst's ``children`` visits every child)."""
    found = []
    for name in _FIELDS:
        value = getattr(node, name, None)
        for child in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(child, _BLOCKS):
                found.append(child)
    return found


def _cst_defs(module: cst.Module):
    """Class and function statements, in source order."""
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            yield node
        stack.extend(reversed(blocks_in(node)))
