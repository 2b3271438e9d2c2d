"""Each statement of a libcst tree paired with ``ast``'s of its text: the one bridge between them.

Facts are read from ``ast``; edits are made on libcst's nodes. The two trees
hold the same statements in the same order: a libcst small statement (a part
of a ``SimpleStatementLine``) or compound one is one ``ast`` statement, and a
preorder walk (a compound statement before those it holds; its blocks as
libcst orders them: body, handlers, orelse, finalbody, cases) meets them one
for one. An ``elif`` is its ``If``'s ``orelse`` in both; a block a rewrite
emptied is the ``pass`` libcst writes for it. Positions are never
read: the pairing costs a walk of each tree's statements, not the code
generation libcst's positions need. Where the running ``ast`` cannot read the
text, it reads the text written out older (``summary.ast_of``), whose
statements are the same.
"""

from __future__ import annotations

import ast

import libcst as cst

from ..core.errors import tool_bug
from ..core.stmts import held
from .cst_blocks import LINES, blocks_in
from .newsyntax import ALIAS

_SUITES = (cst.IndentedBlock, cst.SimpleStatementSuite)
# ``ast``'s statement types whose libcst type has another name (``async`` is a field there)
_NAMES = {"AsyncFunctionDef": "FunctionDef", "AsyncFor": "For", "AsyncWith": "With", "Delete": "Del"}


class Bridge:
    """The statements of ``tree`` and of ``parsed`` (``ast``'s tree of its text, or of
    that text written out older), paired; a tool bug where they are not the same."""

    def __init__(self, tree: cst.Module, parsed: ast.Module, text: str, as_written: bool = True):
        self.parsed, self.text = parsed, text  # ``text``: what ``ast`` read
        self.as_written = as_written  # ``text`` is the tree's: its lines and columns are the file's
        mine, self._ends = [], {}
        _cst_preorder(tree, mine, self._ends)
        theirs = list(_ast_preorder(parsed))
        if len(mine) != len(theirs) or not all(map(_same_kind, mine, theirs)):
            raise tool_bug("ast's statements are not the tree's", 0)
        self._order = mine
        self._index = {node: i for i, node in enumerate(mine)}
        self._ast = theirs
        # by where it starts: no two statements of a parse start at one place
        self._cst = {(stmt.lineno, stmt.col_offset): node for stmt, node in zip(theirs, mine)}

    def ast_of(self, node: cst.CSTNode) -> ast.stmt:
        """``ast``'s statement for libcst's ``node``, a statement of the tree (else a tool bug)."""
        i = self._index.get(node)
        if i is None:
            raise tool_bug(f"a {type(node).__name__} that is no statement of the tree was asked of ast", 0)
        return self._ast[i]

    def paired(self, node: cst.CSTNode) -> ast.stmt | None:
        """``ast``'s statement for ``node`` where it is a statement of the tree (else None)."""
        i = self._index.get(node)
        return self._ast[i] if i is not None else None

    def cst_of(self, stmt: ast.stmt, strict: bool = True) -> cst.CSTNode | None:
        """libcst's statement for ``stmt``, of ``parsed`` or of another parse of the same
        text; else a tool bug (``strict``) or None."""
        node = self._cst.get((stmt.lineno, stmt.col_offset))
        if node is None and strict:
            raise tool_bug(f"a {type(stmt).__name__} at line {stmt.lineno} is no statement of ast's tree", 0)
        return node

    def within(self, node: cst.CSTNode) -> list[tuple[cst.CSTNode, ast.stmt]]:
        """The pairs of statements ``node`` holds, at any depth, in source order (none:
        ``node`` is a simple statement, or no statement of the tree)."""
        i = self._index.get(node)
        end = self._ends.get(node)
        if i is None or end is None:
            return []
        return list(zip(self._order[i + 1 : end], self._ast[i + 1 : end]))

    def statements(self, kind: type) -> list[tuple[cst.CSTNode, ast.stmt]]:
        """Every pair whose libcst statement is a ``kind``, in source order."""
        return [(node, self._ast[i]) for i, node in enumerate(self._order) if isinstance(node, kind)]


def _cst_preorder(node: cst.CSTNode, found: list, ends: dict) -> None:
    """The statements under ``node`` into ``found``; for each compound one, where those it holds end."""
    for child in blocks_in(node, lines=True):
        if isinstance(child, _SUITES) and not child.body:  # a rewrite emptied it: its code is ``pass``
            found.append(child)
        elif isinstance(child, LINES):
            found.extend(child.body)  # a small statement holds none
        elif isinstance(child, cst.BaseCompoundStatement):
            found.append(child)
            _cst_preorder(child, found, ends)
            ends[child] = len(found)
        else:  # a suite, ``else``, handler, ``finally`` or case: holds statements, is none
            _cst_preorder(child, found, ends)


def _ast_preorder(node: ast.Module | ast.stmt):
    for child in held(node):
        yield child
        yield from _ast_preorder(child)


def _same_kind(node: cst.CSTNode, stmt: ast.stmt) -> bool:
    name = type(stmt).__name__
    if isinstance(node, _SUITES):  # an empty one: libcst writes ``pass``
        return name == "Pass"
    if name == "Assign" and isinstance(node, cst.TypeAlias):  # ``newsyntax``'s ``type X = v`` on an older ``ast``
        return len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == ALIAS
    return type(node).__name__ == _NAMES.get(name, name)
