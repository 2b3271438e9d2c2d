"""What a class statement's own body binds, read from ``ast``: its methods and its
assignments, whatever the body's layout (a one-line ``class C: x = f`` too).
Triage's tests and the rewrites' ``ClassShape`` read these."""

from __future__ import annotations

import ast

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


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
