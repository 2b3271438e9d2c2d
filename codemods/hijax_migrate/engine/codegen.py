"""A rewrite's code: the input's own text for each statement a rule left as
it was, where it was; libcst generates only the rest.

libcst's code generation of a module costs about a third of its parse; a
rule that edits one method would pay it for the whole file, once for its
output and once for the final text. A statement's text depends on nothing
but the statement and the indentation it stands at, and libcst gives back
the input byte for byte: a statement kept (the same node), at the same
indentation, is the input's text of it. The statements whose text is known
are those of the module and, within them, of class and function bodies:
``ast`` gives the first line of each, libcst the lines above it it owns
(``leading_lines``, one line each), and a statement ends where the next
begins. Where anything does not add up (lines ``ast`` and libcst may count
differently, a line between statements that is no comment, no final
newline), libcst generates the whole text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from itertools import accumulate

import libcst as cst
from libcst._nodes.internal import CodegenState

_DEFS = {cst.ClassDef: (ast.ClassDef,), cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef)}
_LAYOUT = ("default_indent", "default_newline", "encoding", "has_trailing_newline")


class _Unsure(Exception):
    """The input's lines do not add up as expected: libcst generates all."""


@dataclass(frozen=True)
class _Text(cst.CSTNode):
    """A statement's text as the input has it, in place of the statement."""

    text: str

    def _visit_and_replace_children(self, visitor):
        return self

    def _codegen_impl(self, state: CodegenState) -> None:
        state.add_token(self.text)


class KeptText:
    """The input's text of its statements, for the code of a rewrite of it."""

    def __init__(self, tree: cst.Module, code: str, python: ast.Module | None):
        self._tree, self._code = tree, code
        self._texts: dict[cst.CSTNode, tuple[tuple[str, ...], int, int]] = {}  # node -> (indents, start, end)
        try:
            self._read(python)
        except _Unsure:
            self._texts = {}

    def code(self, new: cst.Module) -> str:
        """``new.code``, the input's text standing for each statement kept in place."""
        if not self._texts or any(getattr(new, name) != getattr(self._tree, name) for name in _LAYOUT):
            return new.code
        return new.with_changes(body=self._spliced(new.body, ())).code

    def _spliced(self, body, indents: tuple[str, ...]) -> list:
        found = []
        for statement in body:
            known = self._texts.get(statement)
            if known is not None and known[0] == indents:
                found.append(_Text(self._code[known[1]:known[2]]))
            elif type(statement) in _DEFS and isinstance(statement.body, cst.IndentedBlock):
                block = statement.body
                inner = (*indents, self._tree.default_indent if block.indent is None else block.indent)
                found.append(statement.with_changes(body=block.with_changes(body=self._spliced(block.body, inner))))
            else:
                found.append(statement)
        return found

    def _read(self, python: ast.Module | None) -> None:
        code, tree = self._code, self._tree
        if python is None or "\r" in code or not tree.has_trailing_newline or not code.endswith("\n"):
            raise _Unsure
        self._lines = code.split("\n")
        self._offsets = [0, *accumulate(len(line) + 1 for line in self._lines)]  # where each line starts
        end = len(self._lines) - len(tree.footer)  # 1-based: the footer's first line (the text ends "\\n")
        self._block(tree.body, python.body, end, ())

    def _block(self, body, statements: list[ast.stmt], end: int, indents: tuple[str, ...]) -> None:
        """Each of ``body``'s statements (``ast``'s ``statements``), the block's text ending before line ``end``."""
        pairs, rest = [], iter(statements)
        for node in body:
            parts = [next(rest, None) for _ in (node.body if isinstance(node, cst.SimpleStatementLine) else (node,))]
            if None in parts or (type(node) in _DEFS and not isinstance(parts[0], _DEFS[type(node)])):
                raise _Unsure
            pairs.append((node, parts[0], self._start(node, parts[0])))
        if next(rest, None) is not None:
            raise _Unsure
        for at, (node, stmt, start) in enumerate(pairs):
            stop = pairs[at + 1][2] if at + 1 < len(pairs) else end
            if stop <= start or not self._between(stmt.end_lineno + 1, stop):
                raise _Unsure
            self._texts[node] = (indents, self._offsets[start - 1], self._offsets[stop - 1])
            if type(node) in _DEFS and isinstance(node.body, cst.IndentedBlock):
                block = node.body
                inner = (*indents, self._tree.default_indent if block.indent is None else block.indent)
                self._block(block.body, stmt.body, stop - len(block.footer), inner)

    def _start(self, node: cst.CSTNode, stmt: ast.stmt) -> int:
        """The first line of ``node``'s text: its own lines above its first token (``leading_lines``)."""
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        line = self._lines[first - 1]
        if getattr(stmt, "decorator_list", None):
            if not line.lstrip().startswith("@"):
                raise _Unsure
        elif line.encode()[:stmt.col_offset].strip():
            raise _Unsure  # the statement is not the first on its line
        start = first - len(node.leading_lines)
        if start < 1 or not self._between(start, first):
            raise _Unsure
        return start

    def _between(self, first: int, stop: int) -> bool:
        """Are lines ``first`` to ``stop - 1`` blank or comments (no ``\\`` joining lines)?"""
        return all(not text.strip() or text.lstrip().startswith("#") for text in self._lines[first - 1:stop - 1])
