"""Where a module reads a module-level name by a string, as Python's data model lets it.

A module's names are its namespace's keys: ``getattr(module, "Name")`` (no default: a
missing name raises), ``operator.attrgetter("Name")``, and a namespace read as a mapping,
``globals()``, ``vars()``, ``vars(module)``, ``locals()`` or ``module.__dict__``,
subscripted or asked ``.get``/``.pop``/``.setdefault`` with the key. A rename of the name
leaves such a key behind: jax's hijax module no longer binds the old one, and neither
does the renamed import. ``hasattr`` and a ``getattr`` with a default are probes, which
code asks to choose between releases: not reads.
"""

from __future__ import annotations

import ast

from .names import called_name

_NAMESPACES = frozenset({"globals", "vars", "locals"})
_MAPPING_READS = frozenset({"get", "pop", "setdefault", "__getitem__"})


def string_reads(tree: ast.Module, name: str) -> list[tuple[int, str]]:
    """(line, form) of each read of ``name`` by a string in ``tree``, in source order."""
    found = []
    for node in ast.walk(tree):
        form = _form(node, name)
        if form is not None:
            found.append((node.lineno, form))
    return sorted(found)


def may_read_by_string(code: str, name: str) -> bool:
    """May ``code`` hold such a read: the name quoted (a cheap test before a walk)."""
    return f'"{name}"' in code or f"'{name}'" in code


def _form(node: ast.AST, name: str) -> str | None:
    if isinstance(node, ast.Call):
        called = called_name(node.func)
        if called == "getattr" and len(node.args) == 2 and not node.keywords and _is(node.args[1], name):
            return "getattr"
        if called == "attrgetter" and any(_is(arg, name) for arg in node.args):
            return "attrgetter"
        if called in _MAPPING_READS and isinstance(node.func, ast.Attribute) and node.args:
            return "a namespace's key" if _namespace(node.func.value) and _is(node.args[0], name) else None
    if isinstance(node, ast.Subscript) and _namespace(node.value) and _is(node.slice, name):
        return "a namespace's key"
    return None


def _namespace(expr: ast.expr) -> bool:
    """``globals()``, ``vars()``, ``vars(m)``, ``locals()``, or ``m.__dict__``."""
    if isinstance(expr, ast.Attribute):
        return expr.attr == "__dict__"
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _NAMESPACES


def _is(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Constant) and expr.value == name
