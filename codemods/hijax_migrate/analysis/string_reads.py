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
import functools

from .constants import ModuleConstants
from .name_refs import is_namespace
from .names import called_name
from .namespace import own_namespace

_MAPPING_READS = frozenset({"get", "pop", "setdefault", "__getitem__"})


def string_reads(tree: ast.Module, name: str) -> list[tuple[int, str]]:
    """(line, form) of each read of ``name`` by a string in ``tree``, in source order: the
    key written out, or one the module's constants make (``analysis.constants``)."""
    return [(line, form) for line, form, _ in read_objects(tree, name)]


def read_objects(tree: ast.Module, name: str) -> list[tuple[int, str, ast.expr | None]]:
    """``string_reads`` with the object whose namespace each reads (``getattr``'s first
    argument, ``m`` of ``vars(m)`` or ``m.__dict__``); None: the code's own namespace
    (``globals()``, ``vars()``), or a getter applied later (``attrgetter``)."""
    constants = functools.cache(lambda: ModuleConstants.of(tree))  # a walk, only for a key not written out
    found = []
    for node in ast.walk(tree):
        form = _form(node, lambda key: _is(key, name, constants))
        if form is not None:
            found.append((node.lineno, *form))
    return sorted(found, key=lambda read: read[:2])


_GETTERS = ("getattr", "attrgetter", "globals()", "vars(", "locals()", "__dict__")


def may_read_by_string(code: str, name: str) -> bool:
    """May ``code`` hold such a read (a cheap test before a walk): the name quoted, or a
    getter or namespace whose key the code may compute."""
    return f'"{name}"' in code or f"'{name}'" in code or any(getter in code for getter in _GETTERS)


def _form(node: ast.AST, is_key) -> tuple[str, ast.expr | None] | None:
    """(form, the object read) of a read by a string; None: no such read."""
    if isinstance(node, ast.Call):
        called = called_name(node.func)
        if called == "getattr" and len(node.args) == 2 and not node.keywords and is_key(node.args[1]):
            return "getattr", node.args[0]
        if called == "attrgetter" and any(is_key(arg) for arg in node.args):
            return "attrgetter", None
        if called in _MAPPING_READS and isinstance(node.func, ast.Attribute) and node.args:
            namespace = node.func.value
            return ("a namespace's key", _owner(namespace)) if _namespace(namespace) and is_key(node.args[0]) else None
    if isinstance(node, ast.Subscript) and _namespace(node.value) and is_key(node.slice):
        return "a namespace's key", _owner(node.value)
    return None


def _owner(namespace: ast.expr) -> ast.expr | None:
    """Whose namespace it is: ``m`` of ``m.__dict__`` or ``vars(m)``; None: the code's own."""
    if isinstance(namespace, ast.Attribute):
        return namespace.value
    if isinstance(namespace, ast.Call) and namespace.args:
        return namespace.args[0]
    return None


def _namespace(expr: ast.expr) -> bool:
    """A namespace read as a mapping: an object's (``m.__dict__``, ``vars(m)``:
    ``name_refs.is_namespace``), the code's own (``vars()``, ``locals()``:
    ``namespace.own_namespace``), or the module's (``globals()``)."""
    globals_call = isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "globals"
    return globals_call or is_namespace(expr) or own_namespace(expr)


def _is(expr: ast.expr, name: str, constants) -> bool:
    """Is ``expr`` the string ``name``, or may it be (a name bound to it, a ``+`` of parts)?
    ``constants()``: the module's (``ModuleConstants``)."""
    if isinstance(expr, ast.Constant):
        return expr.value == name
    values = constants().strings(expr) if isinstance(expr, (ast.Name, ast.BinOp, ast.JoinedStr)) else None
    return values is not None and name in values
