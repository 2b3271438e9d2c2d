"""What a class statement's own body binds, read from ``ast``: its methods and its
assignments, whatever the body's layout (a one-line ``class C: x = f`` too).
Triage's tests and the rewrites' ``ClassShape`` read these."""

from __future__ import annotations

import ast

from ..core.stmts import held

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# The compound statements whose arms run or not as the class is made
_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Match)


def methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    """Each ``def`` of the body, by name: the last of a name (the one Python keeps)."""
    return {stmt.name: stmt for stmt in node.body if isinstance(stmt, FUNCTIONS)}


def assignments(node: ast.ClassDef) -> dict[str, ast.Assign]:
    """Each name an ``=`` statement of the body writes in its targets (a name, or an
    attribute's: ``x.y = v`` names both), and the last such statement."""
    found = {}
    for stmt in node.body:
        if isinstance(stmt, ast.Assign):
            for sub in (sub for target in stmt.targets for sub in ast.walk(target)):
                if isinstance(sub, (ast.Name, ast.Attribute)):
                    found[sub.id if isinstance(sub, ast.Name) else sub.attr] = stmt
    return found


def conditional_defs(node: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    """Methods the body defines inside a block (``if``, ``try``, ``for``...), at any depth
    of blocks (not inside a function or a class): whether and which one exists is decided
    when the code runs. The first of a name, in source order."""
    found: dict[str, ast.FunctionDef] = {}
    stack = [stmt for stmt in reversed(node.body) if isinstance(stmt, _BLOCKS)]
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, FUNCTIONS):
            found.setdefault(stmt.name, stmt)
        elif not isinstance(stmt, ast.ClassDef):
            stack.extend(reversed([*held(stmt)]))
    return found
