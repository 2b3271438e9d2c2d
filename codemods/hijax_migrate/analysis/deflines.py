"""The lines of class and function statements, read from ``ast``.

Rules name the line of the class or method they rewrite. libcst resolves
positions with a code generation of the whole module, several times the cost
of ``ast``'s parse, which has them: ``bridge`` pairs the two trees'
statements. A line is only taken where ``ast`` read the text as written and
the statement's name stands on its keyword's line, else libcst is asked
(``line`` returns None).
"""

from __future__ import annotations

import libcst as cst

from . import attr_reach
from .bridge import Bridge
from .line_walk import names_on_its_line


class DefLines:
    def __init__(self, bridge: Bridge, code: str):
        self._bridge, self._code = bridge, code
        self._lines: dict[cst.CSTNode, int] | None = None
        self._spans: list[list[int]] | None = None

    def spans(self) -> list[list[int]] | None:
        """The line spans of the module's statements (see ``attr_reach.spans``);
        None where ast cannot tell them."""
        self._read()
        return self._spans

    def line(self, node: cst.CSTNode) -> int | None:
        """The line of ``node``'s name, for a class or function of the tree;
        of its keyword, for an import (a rename of a base names the import
        it edits)."""
        if not isinstance(node, (cst.ClassDef, cst.FunctionDef, cst.Import, cst.ImportFrom)):
            return None
        self._read()
        return self._lines.get(node)

    def _read(self) -> None:
        if self._lines is not None:
            return
        self._lines = {}
        if "\r" in self._code or not self._bridge.as_written:  # lines ast might count otherwise: libcst decides
            return
        self._spans = attr_reach.spans(self._bridge.parsed.body)
        lines = self._code.split("\n")
        for node, stmt in self._bridge.statements((cst.ClassDef, cst.FunctionDef)):
            if names_on_its_line(lines[stmt.lineno - 1], stmt):
                self._lines[node] = stmt.lineno
        for node, stmt in self._bridge.statements((cst.Import, cst.ImportFrom)):
            self._lines[node] = stmt.lineno
