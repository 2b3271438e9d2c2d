"""Where code names an identifier, in every place the grammar takes one.

The reference's grammar (and ``ast``'s ASDL) holds identifiers in names
(``Name``), attributes, the names ``def`` and ``class`` bind, parameters,
keyword arguments, imports (dotted, each part), ``global``/``nonlocal``,
``except ... as``, patterns (capture, ``*rest``, ``**rest``, keyword
attributes of a class pattern), type parameters; and the expressions of an
f-string, which ``ast`` parses as expressions. A reading that misses one
place would take a name as unused where it is not."""

from __future__ import annotations

import ast

# (node type, its fields holding an identifier, or a list of them)
_FIELDS = {
    ast.FunctionDef: ("name",),
    ast.AsyncFunctionDef: ("name",),
    ast.ClassDef: ("name",),
    ast.Global: ("names",),
    ast.Nonlocal: ("names",),
    ast.Attribute: ("attr",),
    ast.Name: ("id",),
    ast.ExceptHandler: ("name",),
    ast.arg: ("arg",),
    ast.keyword: ("arg",),
    ast.alias: ("name", "asname"),
    ast.ImportFrom: ("module",),
    ast.MatchMapping: ("rest",),
    ast.MatchClass: ("kwd_attrs",),
    ast.MatchStar: ("name",),
    ast.MatchAs: ("name",),
    **{getattr(ast, kind): ("name",) for kind in ("TypeVar", "ParamSpec", "TypeVarTuple") if hasattr(ast, kind)},
}
_DOTTED = (ast.alias, ast.ImportFrom)  # ``import a.b.c``: three names


def own(node: ast.AST) -> list[str]:
    """The identifiers ``node`` holds itself (not those of the nodes under it)."""
    found = []
    for field in _FIELDS.get(type(node), ()):
        value = getattr(node, field, None)
        for one in value if isinstance(value, list) else [] if value is None else [value]:
            found += one.split(".") if isinstance(node, _DOTTED) else [one]
    return found


def identifiers(node: ast.AST) -> list[str]:
    """Every identifier written under ``node`` (itself included), once per place."""
    return [word for sub in ast.walk(node) for word in own(sub)]


def occurrences(nodes: list[ast.AST], name: str) -> int:
    """How many places under ``nodes`` name ``name``."""
    return sum(found == name for node in nodes for found in identifiers(node))


def first_naming(nodes: list[ast.AST], name: str) -> ast.AST | None:
    """The node naming ``name`` first in source order under ``nodes`` (its own place, where the
    grammar puts it: an attribute's chain, an import's alias), or None."""
    found = [sub for node in nodes for sub in ast.walk(node) if name in own(sub) and hasattr(sub, "lineno")]
    return min(found, key=lambda sub: (sub.lineno, sub.col_offset), default=None)
