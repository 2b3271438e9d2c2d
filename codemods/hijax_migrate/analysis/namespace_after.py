"""Bindings of API names made outside a class body, from ``ast``: after the
class statement, and by the ways a class is made.

- after it, in any scope: ``Cls.N = f`` (and ``del Cls.N``), ``setattr(Cls,
  "N", f)`` and ``delattr`` (also as ``type.__setattr__``), ``self.N = f`` in a method (on the instance);
- how a class is made: ``type(name, bases, {"N": f})``,
  ``types.new_class(...)`` (its namespace is filled by a function), a
  metaclass of the module that writes an API name, a class decorator of the
  module that sets one on the class it gets, ``__init_subclass__`` of a base
  setting one on every subclass, ``__set_name__`` of a descriptor in a body.

Each binding comes with the class it binds on: the index of a class
statement of the module (``ast_summary.class_statements``' order), or None
where the class is made by a call (the binding's ``value`` is then the bases).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .ast_summary import full_name
from .line_walk import spans, word_lines
from .names import called_name
from .namespace import (
    API_NAMES,
    ATTRIBUTE,
    DECORATOR,
    DELATTR,
    FACTORY,
    GIVEN,
    INIT_SUBCLASS,
    INSTANCE,
    METACLASS,
    NEW_CLASS,
    SET_NAME,
    SETATTR,
    Binding,
)

Owned = tuple[int | None, Binding]
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


# A binding made outside a class body names one of these on its lines (``line_walk``)
_WORDS = frozenset({*API_NAMES, "setattr", "delattr", "__setattr__", "__delattr__", "type", "new_class"})


def outside_bindings(tree: ast.Module, classes: list[ast.ClassDef], code: str | None = None) -> list[Owned]:
    """Each binding of an API name (or of a name not written out) made outside class bodies.
    ``code``: ``tree``'s text, where given only the nodes over lines naming a word of such a
    binding are walked (a few paths down a big module instead of every node)."""
    walk = _Walk(classes, None if code is None else word_lines(code, _WORDS))
    walk.visit(tree)
    return walk.found + list(_metaclasses(classes))


class _Walk(ast.NodeVisitor):
    def __init__(self, classes: list[ast.ClassDef], lines: list[int] | None = None):
        self.classes, self.lines = classes, lines
        self.by_name: dict[str, list[int]] = {}
        for index, cls in enumerate(classes):
            self.by_name.setdefault(cls.name, []).append(index)
        self.decorated = {}  # function name -> the classes it decorates
        for index, cls in enumerate(classes):
            for deco in cls.decorator_list:
                func = deco.func if isinstance(deco, ast.Call) else deco
                if isinstance(func, ast.Name):
                    self.decorated.setdefault(func.id, []).append(index)
        self.found: list[Owned] = []
        self.stack: list[ast.AST] = []  # enclosing classes and functions

    def generic_visit(self, node: ast.AST) -> None:
        scope = isinstance(node, (*_FUNCTIONS, ast.ClassDef))
        if scope:
            self.stack.append(node)
        lines = self.lines
        if isinstance(node, ast.JoinedStr):
            self.lines = None  # an f-string's parts may be placed loosely: walked whole
        for child in ast.iter_child_nodes(node):
            if self.lines is None or spans(child, self.lines):
                self.visit(child)
        self.lines = lines
        if scope:
            self.stack.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._store(target, ATTRIBUTE, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._store(node.target, ATTRIBUTE, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._store(node.target, ATTRIBUTE, node.value)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._store(target, DELATTR, None)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _setter(node.func)
        if name in ("setattr", "delattr") and len(node.args) >= 2:
            value = node.args[2] if len(node.args) > 2 else None
            key = _constant(node.args[1])
            if key is None or key in API_NAMES:
                self._on(node.args[0], key, SETATTR if name == "setattr" else DELATTR, node.lineno, value)
        elif name == "type" and len(node.args) == 3 and isinstance(node.args[2], ast.Dict):
            self._factory(node)
        elif name == "new_class":
            bases = node.args[1] if len(node.args) > 1 else _keyword(node, "bases")
            self.found.append((None, Binding(None, NEW_CLASS, node.lineno, value=bases)))
        self.generic_visit(node)

    def _factory(self, call: ast.Call) -> None:
        # ``**members`` is the engine's to note (``engine.runtime``), as it always was
        for key in call.args[2].keys:
            name = _constant(key) if key is not None else ""
            if name is None or name in API_NAMES:
                binding = Binding(name, FACTORY, call.lineno, value=call.args[1], namespace=call.args[2])
                self.found.append((None, binding))

    def _store(self, target: ast.expr, form: str, value: ast.expr | None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._store(element, form, value)
        elif isinstance(target, ast.Starred):
            self._store(target.value, form, value)
        elif isinstance(target, ast.Attribute) and target.attr in API_NAMES:
            self._on(target.value, target.attr, form, target.lineno, value)

    def _on(self, obj: ast.expr, name: str | None, form: str, line: int, value) -> None:
        """A binding of ``name`` on ``obj``: on the classes ``obj`` may be (a name of the module
        no class statement of it binds: ``on``, for the tree's classes to answer)."""
        owners = self._owners(obj.id, form) if isinstance(obj, ast.Name) else None
        if owners == [] and self._is_parameter(obj.id):  # any class the function is given
            self.found.append((None, Binding(name, form, line, value=value, on=GIVEN)))
            return
        if owners is None or not owners:
            dotted = full_name(obj) if isinstance(obj, (ast.Name, ast.Attribute)) else None
            if dotted is not None:
                self.found.append((None, Binding(name, form, line, value=value, on=dotted)))
            return
        for index, how in owners:
            self.found.append((index, Binding(name, how, line, value=value, via=form)))

    def _is_parameter(self, name: str) -> bool:
        func = next((node for node in reversed(self.stack) if isinstance(node, _FUNCTIONS)), None)
        return func is not None and name in {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}

    def _owners(self, name: str, form: str) -> list[tuple[int | None, str]]:
        func = next((node for node in reversed(self.stack) if isinstance(node, _FUNCTIONS)), None)
        params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)] if func is not None else []
        if name in params[:2]:
            return self._through(func, params.index(name))
        return [(index, form) for index in self.by_name.get(name, ())]

    def _through(self, func: ast.FunctionDef, position: int) -> list[tuple[int | None, str]]:
        """``name`` is the function's first (or second) parameter: which classes it may be."""
        outer = self._class_of(func)
        if func.name == "__init_subclass__" and position == 0 and outer is not None:
            return [(outer, INIT_SUBCLASS)]
        if func.name == "__set_name__" and position == 1 and outer is not None:
            return [(index, SET_NAME) for index in self._holding(self.classes[outer].name)]
        if position == 0 and func.name in self.decorated and outer is None:
            return [(index, DECORATOR) for index in self.decorated[func.name]]
        if position == 0 and outer is not None and not _static(func):
            return [(outer, INSTANCE)]
        return []

    def _class_of(self, func: ast.FunctionDef) -> int | None:
        """The class whose body holds ``func`` itself (None: a function)."""
        at = self.stack.index(func) if func in self.stack else -1
        holder = self.stack[at - 1] if at > 0 else None
        return next((i for i, cls in enumerate(self.classes) if cls is holder), None)

    def _holding(self, descriptor: str) -> list[int]:
        """The classes whose body binds an instance of ``descriptor``."""
        return [
            index
            for index, cls in enumerate(self.classes)
            if any(called_name(node.func) == descriptor for stmt in cls.body for node in _calls(stmt))
        ]


def _setter(func: ast.expr) -> str | None:
    """``setattr``/``delattr``, also as ``type.__setattr__``/``object.__delattr__`` (the same
    call, through the data model's own method); else the name called."""
    name = called_name(func)
    dunder = {"__setattr__": "setattr", "__delattr__": "delattr"}.get(name or "")
    through = (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("type", "object")
    )
    return dunder if dunder and through else name


def _metaclasses(classes: list[ast.ClassDef]) -> Iterator[Owned]:
    """A metaclass of the module whose body names an API name (a namespace key, an
    attribute it sets): it may bind that name on every class it makes."""
    by_name = {cls.name: cls for cls in classes}
    for index, cls in enumerate(classes):
        meta = _keyword(cls, "metaclass")
        body = by_name.get(meta.id) if isinstance(meta, ast.Name) else None
        for node in ast.walk(body) if body is not None else ():
            name = _constant(node) if isinstance(node, ast.Constant) else getattr(node, "attr", None)
            if name in API_NAMES:
                yield index, Binding(name, METACLASS, node.lineno, value=meta)


def _calls(stmt: ast.stmt) -> Iterator[ast.Call]:
    return (node for node in ast.walk(stmt) if isinstance(node, ast.Call))


def _static(func: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in func.decorator_list)


def _keyword(node: ast.Call | ast.ClassDef, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def _constant(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
