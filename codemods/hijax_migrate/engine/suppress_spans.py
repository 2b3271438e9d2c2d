"""Where a file's classes stand, by qualified name (``Outer.Op``,
``f.<locals>.Op``, as ``ClassInfo.qualname`` names them), read with ``ast``:
which class a line belongs to, and the names a class reads as written."""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    qualname: str
    first: int  # the class statement's line, where a mark covers the class
    last: int
    start: int  # its first decorator's line, or ``first``
    node: ast.ClassDef


def class_spans(code: str) -> list[Span]:
    """The file's class statements, outer before inner; none where ``ast`` cannot read it."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return spans_of(tree)


def spans_of(tree: ast.AST) -> list[Span]:
    """``class_spans`` of a tree already read."""
    found: list[Span] = []
    stack: list[tuple[ast.AST, str]] = [(tree, "")]
    while stack:
        node, prefix = stack.pop()
        for child in reversed(list(ast.iter_child_nodes(node))):
            stack.append((child, _prefix(child, prefix)))
            if isinstance(child, ast.ClassDef):
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append(Span(prefix + child.name, child.lineno, child.end_lineno, start, child))
    return sorted(found, key=lambda span: (span.start, -span.last))


def _prefix(node: ast.AST, prefix: str) -> str:
    if isinstance(node, ast.ClassDef):
        return f"{prefix}{node.name}."
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"{prefix}{node.name}.<locals>."
    return prefix


def owner(spans: list[Span], line: int) -> str:
    """The innermost class whose statement holds ``line`` ("" : module-level code)."""
    inside = [span for span in spans if span.start <= line <= span.last]
    return inside[-1].qualname if inside else ""


def attributes_named(span: Span, names) -> bool:
    """Does the class read an attribute of one of ``names`` (``hx.VJPHiPrimitive``)?"""
    return any(isinstance(node, ast.Attribute) and node.attr in names for node in ast.walk(span.node))
