"""What the rules' triage tests ask of a class, from ``ast``.

As ``analysis.shape`` asks it of libcst's nodes: the tests built on these are
supersets of what the rewrites act on (see ``engine/triage.py``).
"""

from __future__ import annotations

import ast

from ..analysis.class_body import FUNCTIONS, methods
from ..analysis.returns import tuple_sizes


def assigned(node: ast.ClassDef) -> set[str]:
    names = set()
    for stmt in node.body:
        targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else getattr(stmt, "targets", ())
        for target in targets:
            names |= {
                sub.id if isinstance(sub, ast.Name) else sub.attr
                for sub in ast.walk(target)
                if isinstance(sub, (ast.Name, ast.Attribute))
            }
    return names


def in_blocks(node: ast.ClassDef) -> set[str]:
    """Names of functions defined inside a block of the body, at any depth (in a function or a
    class there too): triage's superset of ``class_body.conditional_defs`` and of the blocks
    HJX001's rewrite reads (``class_body.defs_in_blocks``)."""
    blocks = [stmt for stmt in node.body if not isinstance(stmt, (*FUNCTIONS, ast.ClassDef))]
    return {sub.name for stmt in blocks for sub in ast.walk(stmt) if isinstance(sub, FUNCTIONS)}


def single_targets(node: ast.ClassDef) -> set[str]:
    """``name = value`` in the class body, one name alone."""
    return {
        stmt.targets[0].id
        for stmt in node.body
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    }


def has_sres(node: ast.ClassDef) -> bool:
    """``vjp_fwd`` returns a tuple of four (as ``ClassShape.has_sres`` reads it, through the bridge)."""
    fwd = methods(node).get("vjp_fwd")
    return fwd is not None and 4 in tuple_sizes(fwd)


def positional(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args)]


def names_one_of(node: ast.AST, names: frozenset[str] | set[str]) -> bool:
    """``node`` names one of ``names``: as a name, an attribute, or an imported
    name (an alias is imported by its name, its last dotted part)."""
    return (
        isinstance(node, ast.Name)
        and node.id in names
        or isinstance(node, ast.Attribute)
        and node.attr in names
        or isinstance(node, ast.alias)
        and node.name.rsplit(".", 1)[-1] in names
    )
