"""Statement-only walks of an ``ast`` tree.

Classes, functions and assignments are statements: a walk that skips the
expressions (most of a module's nodes) finds them several times faster
than ``ast.walk``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(tree: ast.Module | ast.stmt, skip: tuple[type, ...] = ()) -> Iterator[ast.stmt]:
    """Every statement under ``tree``, at any depth (in no particular order),
    but those of types ``skip`` and all they hold."""
    stack = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, skip):
            continue
        yield stmt
        for name in _BLOCKS:
            for child in getattr(stmt, name, ()):
                stack.extend(child.body if isinstance(child, (ast.excepthandler, ast.match_case)) else [child])
