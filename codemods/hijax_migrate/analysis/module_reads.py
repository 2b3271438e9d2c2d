"""Whether another module of the tree reads a name off a module of it.

A module's globals are the attributes of its module object (the data model), and
any module that holds the object reads them: ``from pkg.m import NAME`` (in any
scope), ``m.NAME`` (``m`` bound by ``import pkg.m as m``, ``from pkg import m``, or
``pkg.m.NAME`` after ``import pkg.m``; a class's base too), ``getattr(m, "NAME")``
and the other reads by a string (``string_reads``), and a name a star import of the
module (``from pkg.m import *``) binds. A rename that unbinds ``NAME`` in ``pkg.m``
breaks each of them, so the name stays bound there.

Where the object may be the module but is not known (a value the code makes, a
parameter, an import inside a function, a star import of another module) the answer
is yes: keeping the name bound (``New as Old``) is right wherever it is read. What a
file reads a name off is worked out once a run (the file as found, never rewritten).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from .names import NameModel
from .reach import other_files, parsed_file
from .scopes import resolve_relative
from .string_reads import string_reads

_COMPUTED = frozenset({"import_module", "__import__", "modules"})  # ``sys.modules[...]``


@dataclass
class Readers:
    """The modules one file may read a name off: by their names, every module in a
    package (``packages``), or any (``anything``); ``own``: the file's own module."""

    own: str = ""
    modules: set[str] = field(default_factory=set)
    packages: set[str] = field(default_factory=set)
    anything: bool = False

    def reads_off(self, module: str) -> bool:
        if module == self.own:
            return False
        return self.anything or module in self.modules or any(module.startswith(f"{p}.") for p in self.packages)


def read_off_elsewhere(project, module: str, name: str, this_file: str) -> bool:
    """Does another Python file of the tree read ``name`` off ``module``'s module object?"""
    if not module:
        return False
    memo = project.index.module_readers
    for root, path in other_files(project, name, this_file):
        key = (os.path.realpath(path), name)
        if key not in memo:
            summary, tree = parsed_file(project, root, path)
            memo[key] = _readers(tree, summary, path.name == "__init__.py", name)
        if memo[key].reads_off(module):
            return True
    return False


def _readers(tree: ast.Module | None, summary, is_package: bool, name: str) -> Readers:
    if tree is None or summary is None:
        return Readers(anything=True)  # unreadable: a read there is not known
    found, model = Readers(summary.module), NameModel.of(tree)
    for node in model.import_froms:
        if any(alias.name == name for alias in node.names):
            found.modules.add(_source(node, summary.module, is_package))
    for node in model.attributes.get(name, ()):
        _objects(node.value, model, summary.module, is_package, found)
    if name in model.reads:
        found.modules.update(_source(star, summary.module, is_package) for star in model.stars)
    if name in model.strings or string_reads(tree, name):
        for node in ast.walk(tree):
            _held(node, summary.module, is_package, found)
    return found


def _objects(obj: ast.expr, model: NameModel, own: str, is_package: bool, found: Readers) -> None:
    """The modules ``obj`` (what ``.name`` is read off) may be, added to ``found``: each
    binding of its head an import (in any scope) names one; any other may be any object."""
    parts = dotted_parts(obj)
    dotted = ".".join(parts) if parts else None
    head, _, rest = (dotted or "").partition(".")
    bindings = model.bindings.get(head, []) if dotted else []
    if dotted is None:
        found.anything = True  # made when the code runs (``import_module(...)``, ``sys.modules[...]``)
    elif not bindings:
        found.anything |= bool(model.stars)  # a builtin, or what a star import binds
    for binding in bindings:
        if isinstance(binding.statement, (ast.Import, ast.ImportFrom)):
            found.modules.add(f"{imported(binding, own, is_package)}.{rest}".rstrip("."))
        elif not isinstance(binding.node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found.anything = True  # a value (``m = pkg.m``), a parameter: any object


def imported(binding, own: str, is_package: bool) -> str:
    """The module (or object) an import binding of the name model binds its name to, in the
    module ``own`` (``is_package``: an ``__init__``), a relative import resolved."""
    alias, statement = binding.node, binding.statement
    if isinstance(statement, ast.Import):
        return alias.name if alias.asname else alias.name.partition(".")[0]
    return f"{_source(statement, own, is_package)}.{alias.name}"


def _held(node: ast.AST, own: str, is_package: bool, found: Readers) -> None:
    """The module objects ``node`` gives, added to ``found``: an import of one (of a package,
    every module in it, once loaded), or one made when the code runs."""
    if isinstance(node, ast.Import):
        found.packages.update(alias.name for alias in node.names)
        found.modules.update(alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        source = _source(node, own, is_package)
        found.modules.update(f"{source}.{alias.name}" for alias in node.names)
    elif _named(node) in _COMPUTED:
        found.anything = True


def _named(node: ast.AST) -> str | None:
    """The name a ``Name`` reads, or an ``Attribute`` takes."""
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def dotted_parts(expr: ast.expr) -> list[str] | None:
    """``["a", "b", "c"]`` of ``a.b.c``, a chain of attributes on a name; None for anything
    else (a call's result, a subscript's: ``full_name`` would name what they apply to)."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    return [expr.id, *reversed(parts)] if isinstance(expr, ast.Name) else None


def _source(node: ast.ImportFrom, own: str, is_package: bool) -> str:
    """The module an ``import from`` names, relative ones resolved."""
    return resolve_relative(own, is_package, node.level, node.module) if node.level else node.module or ""
