"""What a class statement's own body binds, read from ``ast``: its methods and its
assignments, whatever the body's layout (a one-line ``class C: x = f`` too).
Triage's tests and the rewrites' ``ClassShape`` read these."""

from __future__ import annotations

import ast
from collections.abc import Iterator

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
    for func in _defs_through([stmt for stmt in node.body if isinstance(stmt, _BLOCKS)]):
        found.setdefault(func.name, func)
    return found


def if_arms(stmt: ast.If) -> list[list[ast.stmt]]:
    """The bodies of an ``if`` chain's arms, one of which runs (none, without an ``else``):
    an ``elif``, or an ``else`` holding nothing but an ``if``, goes on with the chain."""
    arms = [stmt.body]
    while len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
        stmt = stmt.orelse[0]
        arms.append(stmt.body)
    return arms + ([stmt.orelse] if stmt.orelse else [])


def defs_named(nodes: list[ast.AST], name: str) -> list[ast.FunctionDef]:
    """Every ``def name`` under ``nodes``, at any depth (in functions and classes too)."""
    return [sub for node in nodes for sub in ast.walk(node) if isinstance(sub, FUNCTIONS) and sub.name == name]


def branch_defs(node: ast.ClassDef, name: str) -> list[ast.FunctionDef] | None:
    """Every ``def name`` the class body makes in the arms of ``if`` chains (one
    of them runs, decided when the class is made); None where one stands
    anywhere else: in another block (``try``, ``for``, ``with``...), deeper
    than an arm, in a function or a class."""
    found = []
    for stmt in node.body:
        for arm in if_arms(stmt) if isinstance(stmt, ast.If) else ():
            for inner in arm:
                if isinstance(inner, FUNCTIONS) and inner.name == name:
                    found.append(inner)
                elif isinstance(inner, _BLOCKS) and defs_named([inner], name):
                    return None
    return found if len(found) == len(defs_named(node.body, name)) else None


def defs_in_blocks(stmts: list[ast.stmt], name: str) -> list[ast.FunctionDef]:
    """Every ``def name`` reached through the blocks of ``stmts``, in source order
    (never into a function or a class: their bodies are no part of the class's)."""
    return [func for func in _defs_through(stmts) if func.name == name]


def _defs_through(stmts: list[ast.stmt]) -> Iterator[ast.FunctionDef]:
    """Every ``def`` among ``stmts`` or reached through their blocks, in source order."""
    stack = list(reversed(stmts))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, FUNCTIONS):
            yield stmt
        elif not isinstance(stmt, ast.ClassDef):
            stack.extend(reversed([*held(stmt)]))
