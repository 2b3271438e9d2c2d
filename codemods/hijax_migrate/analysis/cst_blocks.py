"""Statement-only walks of a libcst tree (``core.stmts`` walks ``ast``'s).

Statements hold statements; expressions and simple statements hold none. A
walk that reads only the fields that hold blocks finds the statements many
times faster than libcst's visit of every node.
"""

from __future__ import annotations

import libcst as cst

from ..core.stmts import FIELDS  # the same fields hold libcst's blocks

LINES = (cst.SimpleStatementLine, cst.SimpleStatementSuite)  # what holds small statements
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


_HAS: dict[type, tuple[str, ...]] = {}  # node type -> the fields of ``FIELDS`` it has
# node type -> is it one of ``_BLOCKS`` (False), or with simple statement lines (True)?
_IS: dict[bool, dict[type, bool]] = {False: {}, True: {}}


def blocks_in(node: cst.CSTNode, lines: bool = False) -> list[cst.CSTNode]:
    """The children of ``node`` that are or hold statements, in source order
    (read from their fields: libcst's ``children`` visits every child);
    with ``lines``, simple statement lines too. Types are asked once each
    (an ``isinstance`` of libcst's abstract classes is slow)."""
    fields = _HAS.get(type(node))
    if fields is None:
        fields = _HAS[type(node)] = tuple(name for name in FIELDS if hasattr(node, name))
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
        if isinstance(node, LINES):
            found.extend(small for small in node.body if isinstance(small, kind))
        else:
            stack.extend(reversed(blocks_in(node, lines=True)))
    return found


def own_statements(cls: cst.ClassDef) -> list[cst.CSTNode]:
    """The class body's own statements, in source order, whatever its layout: a
    line's small statements one by one (``a = 1; b = 2``), a one-line body's too
    (``class C: a = 1``), and the compound ones."""
    return [small for stmt in _own(cls) for small in (stmt.body if isinstance(stmt, LINES) else (stmt,))]


def own_smalls(cls: cst.ClassDef) -> list[tuple[cst.BaseSmallStatement, cst.CSTNode]]:
    """``own_statements``' small ones, each with what holds it (its line, or the one-line body)."""
    return [(small, stmt) for stmt in _own(cls) if isinstance(stmt, LINES) for small in stmt.body]


def _own(cls: cst.ClassDef) -> list[cst.CSTNode]:
    """The body's statement lines and compound statements; a one-line body is one line."""
    return [cls.body] if isinstance(cls.body, cst.SimpleStatementSuite) else list(cls.body.body)


def after_removal(updated: cst.CSTNode, last_removed: bool) -> cst.CSTNode:
    """A line (or one-line body) once a rewrite removed some of its small statements: where
    its last one went (``last_removed``), the ``;`` that separated it from the one now last
    goes too (a line left empty is the ``pass`` libcst writes)."""
    if not last_removed or not updated.body:
        return updated
    last = updated.body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(body=[*updated.body[:-1], last])
