"""Statement-only walks of an ``ast`` tree.

Classes, functions and assignments are statements: a walk that skips the
expressions (most of a module's nodes) finds them several times faster
than ``ast.walk``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # a statement's blocks, in source order
_HOLDERS = (ast.excepthandler, ast.match_case)  # hold statements, are none


def statements(tree: ast.Module | ast.stmt, skip: tuple[type, ...] = ()) -> Iterator[ast.stmt]:
    """Every statement under ``tree``, at any depth (in no particular order),
    but those of types ``skip`` and all they hold."""
    stack = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, skip):
            continue
        yield stmt
        for name in FIELDS:  # ``held``, written out: this walk is on triage's path
            for child in getattr(stmt, name, ()):
                stack.extend(child.body if isinstance(child, _HOLDERS) else [child])


def held(stmt: ast.Module | ast.stmt) -> Iterator[ast.stmt]:
    """The statements ``stmt`` holds directly, in source order (a handler's and a case's bodies too)."""
    for name in FIELDS:
        for child in getattr(stmt, name, ()):
            yield from child.body if isinstance(child, _HOLDERS) else (child,)
