"""Bindings of API names made outside a class body, from ``ast``: after the
class statement, and by the ways a class is made.

- after it, in any scope: ``Cls.N = f`` (and ``del Cls.N``, a ``for`` or ``with`` target,
  any object the code computes: ``globals()["Cls"].N = f``), ``setattr(Cls, "N", f)`` and
  ``delattr`` (also as ``type.__setattr__``, through a name bound to it, with its arguments
  spread: ``setattr(*args)``, or handed on: ``partial(setattr, Cls)``), code run from a
  string (``exec``, ``eval``), ``self.N = f`` in a method (on the instance);
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
import re
from collections.abc import Iterator

from .ast_summary import full_name
from .line_walk import over_lines, spans, word_lines
from .names import called_name
from .namespace import (
    API_NAMES,
    ATTRIBUTE,
    COMPUTED,
    DECORATOR,
    DELATTR,
    DICT_WRITE,
    EXEC,
    FACTORY,
    GIVEN,
    INIT_SUBCLASS,
    INSTANCE,
    LOOKUP,
    METACLASS,
    NEW_CLASS,
    SET_NAME,
    SETATTR,
    Binding,
)

Owned = tuple[int | None, Binding]
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


# A binding made outside a class body names one of these on its lines (``line_walk``)
_SETTERS = ("setattr", "delattr")
_CODE = ("exec", "eval")  # what runs code from a string, which may bind anything anywhere
_DICTS = ("__dict__", "vars")  # an object's namespace, written as a dict (``DICT_WRITE``)
_DICT_WRITES = frozenset({"update", "setdefault", "__setitem__", "__ior__"})  # its methods that bind names
_WORDS = frozenset({*API_NAMES, *_SETTERS, *_CODE, "__setattr__", "__delattr__", "type", "new_class", *_DICTS, LOOKUP})
# A setter named other than called (``sa = setattr``, ``partial(setattr, C)``, ``"setattr"``):
# each pattern starts with its literal, which ``re`` finds as ``str.find`` would
_SETTER_NAMED = tuple(re.compile(rf"{name}\b(?!\s*\()") for name in _SETTERS)


def _names_a_setter(code: str) -> bool:
    return any(
        not (found.start() and (code[found.start() - 1].isalnum() or code[found.start() - 1] == "_"))
        for pattern in _SETTER_NAMED
        for found in pattern.finditer(code)
    )


def outside_bindings(tree: ast.Module, classes: list[ast.ClassDef], code: str | None = None) -> list[Owned]:
    """Each binding of an API name (or of a name not written out) made outside class bodies.
    ``code``: ``tree``'s text, where given only the nodes over lines naming a word of such a
    binding (or a name a setter is bound to) are walked (a few paths down a big module
    instead of every node)."""
    named = code is None or _names_a_setter(code)  # most modules only call them
    aliases = setter_aliases(tree, None if code is None else word_lines(code, _SETTERS)) if named else {}
    lines = None if code is None else word_lines(code, _WORDS | aliases.keys())
    walk = _Walk(classes, lines, aliases)
    walk.visit(tree)
    return walk.found + list(_metaclasses(classes))


def setter_aliases(tree: ast.Module, lines: list[int] | None) -> dict[str, str]:
    """Names bound to ``setattr`` or ``delattr`` (``sa = setattr``, ``from builtins import
    setattr as sa``), and to anything else whose value names one (``put = partial(setattr,
    C)``: a setter of arguments not known, ``""``), in any scope: a superset."""
    found = {}
    for node in over_lines(tree, lines):
        if isinstance(node, ast.ImportFrom):
            found.update((a.asname, a.name) for a in node.names if a.asname and a.name in _SETTERS)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            named = _setter_named(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update((t.id, named) for t in targets if named is not None and isinstance(t, ast.Name))
    return found


def _setter_named(value: ast.expr) -> str | None:
    """``setattr``/``delattr`` where ``value`` is one; ``""`` where it only names one."""
    if _setter(value) in _SETTERS and isinstance(value, (ast.Name, ast.Attribute)):
        return _setter(value)
    mentions = any(
        _setter(n) in _SETTERS if isinstance(n, (ast.Name, ast.Attribute)) else _constant(n) in _SETTERS
        for n in ast.walk(value)
        if isinstance(n, (ast.Name, ast.Attribute, ast.Constant))
    )
    return "" if mentions else None


class _Walk(ast.NodeVisitor):
    def __init__(self, classes: list[ast.ClassDef], lines: list[int] | None = None, aliases: dict | None = None):
        self.classes, self.lines, self.aliases = classes, lines, aliases or {}
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
        name = self.aliases.get(name, name) if isinstance(node.func, ast.Name) else name
        spread = any(isinstance(arg, ast.Starred) for arg in node.args[:3])
        if name == "" or (name in _SETTERS and spread) or self._handed_on(node):
            self._unknown(SETATTR, node.lineno)  # a setter of arguments not written out
        elif name in _CODE and not _inert(node) and not self._in_body():
            self._unknown(EXEC, node.lineno)  # in a class body: the body's binding (``namespace``)
        elif name in _SETTERS:
            self._setattr(node, name)
        elif name == "type" and len(node.args) == 3 and isinstance(node.args[2], ast.Dict):
            self._factory(node)
        elif isinstance(node.func, ast.Attribute) and node.func.attr in _DICT_WRITES:
            self._dict_write(node.func.value, _call_keys(node), node.lineno, None)
        elif name == "new_class":
            bases = node.args[1] if len(node.args) > 1 else _keyword(node, "bases")
            self.found.append((None, Binding(None, NEW_CLASS, node.lineno, value=bases)))
        self.generic_visit(node)

    def _setattr(self, call: ast.Call, name: str) -> None:
        """``setattr(obj, key, value)``, ``delattr(obj, key)``; the bound dunder's ``obj`` is
        its own (``obj.__setattr__(key, value)``)."""
        args = list(call.args)
        if isinstance(call.func, ast.Attribute) and len(args) == (2 if name == "setattr" else 1):
            args = [call.func.value, *args]
        if len(args) < 2:
            return
        key = _constant(args[1])
        key = None if key == LOOKUP else key  # ``__getattribute__`` reads any name: binds any
        if key is None or key in API_NAMES:
            value = args[2] if len(args) > 2 else None
            self._on(args[0], key, SETATTR if name == "setattr" else DELATTR, call.lineno, value)

    def _handed_on(self, call: ast.Call) -> bool:
        """Is a setter handed to the call (``map(setattr, ...)``, ``partial(setattr, C)``)?"""
        given = [*call.args, *(keyword.value for keyword in call.keywords)]
        return any(_setter(arg) in _SETTERS or _setter(arg) in self.aliases for arg in given)

    def _in_body(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1], ast.ClassDef)

    def _unknown(self, form: str, line: int) -> None:
        """A binding of a name not written out on an object not known: any name on any class."""
        self.found.append((None, Binding(None, form, line, on=COMPUTED)))

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._store(node.target, ATTRIBUTE, None)  # ``for C.vjp_bwd in rules:``
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        if node.optional_vars is not None:
            self._store(node.optional_vars, ATTRIBUTE, None)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._store(node.target, ATTRIBUTE, None)
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
            if target.attr == "params":  # jax's base copies it into the instance's namespace
                self._dict_write(target, _dict_keys(value), target.lineno, value)
        elif isinstance(target, ast.Attribute) and target.attr == LOOKUP:  # reads any name: binds any
            self._on(target.value, None, form, target.lineno, value)
        elif isinstance(target, ast.Attribute) and target.attr == "__dict__":  # ``obj.__dict__ = {...}``, ``|=``
            self._dict_write(target, _dict_keys(value), target.lineno, value)
        elif isinstance(target, ast.Subscript):  # ``obj.__dict__[N] = f``, ``vars(obj)[N] = f``
            self._dict_write(target.value, [_constant(target.slice)], target.lineno, value)

    def _dict_write(self, namespace: ast.expr, keys: list[str | None], line: int, value) -> None:
        """API names written out into an object's own namespace (``namespace``: its ``__dict__`` or
        ``vars(obj)``). A key not written out is data, as jax's own base copies the constructor's
        ``params`` there (``self.__dict__.update(params)``): not read as a rule."""
        owner = _namespace_of(namespace)
        for key in keys if owner is not None else ():
            if key in API_NAMES:
                self._on(owner, key, DICT_WRITE, line, value)

    def _on(self, obj: ast.expr, name: str | None, form: str, line: int, value) -> None:
        """A binding of ``name`` on ``obj``: on the classes ``obj`` may be (a name of the module
        no class statement of it binds: ``on``, for the tree's classes to answer)."""
        owners = self._owners(obj.id, form) if isinstance(obj, ast.Name) else None
        if owners == [] and self._is_parameter(obj.id):  # any class the function is given
            self.found.append((None, Binding(name, form, line, value=value, on=GIVEN)))
            return
        if owners is None or not owners:
            dotted = _dotted(obj)
            on = dotted if dotted is not None else COMPUTED  # ``globals()["C"].vjp_bwd = f``: any class
            self.found.append((None, Binding(name, form, line, value=value, on=on)))
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
    call, through the data model's own method, of any object: ``type(C).__setattr__``); else
    the name called."""
    name = called_name(func)
    dunder = {"__setattr__": "setattr", "__delattr__": "delattr"}.get(name or "")
    return dunder if dunder and isinstance(func, ast.Attribute) else name


def _namespace_of(node: ast.expr) -> ast.expr | None:
    """The object whose namespace ``node`` is: ``obj.__dict__``, ``vars(obj)``, and a primitive's
    ``obj.params``, which jax's base copies there (``self.__dict__.update(self.params)``); else None."""
    if isinstance(node, ast.Attribute) and node.attr in ("__dict__", "params"):
        return node.value
    if isinstance(node, ast.Call) and called_name(node.func) == "vars" and len(node.args) == 1:
        return node.args[0]
    return None


def _call_keys(call: ast.Call) -> list[str | None]:
    """The names a dict method's call writes: ``update(N=f)``, ``update({"N": f})``,
    ``setdefault("N", f)``; None for each that is not written out."""
    if call.func.attr in ("setdefault", "__setitem__"):
        return [_constant(call.args[0]) if call.args else None]
    return [k.arg for k in call.keywords] + [key for arg in call.args for key in _dict_keys(arg)]


def _dict_keys(value: ast.expr | None) -> list[str | None]:
    """The keys a dict display (or ``dict(N=f)``) holds, None for one not written out;
    ``[None]`` for any other value (any name)."""
    if isinstance(value, ast.Dict):
        return [_constant(key) if key is not None else None for key in value.keys]
    if isinstance(value, ast.Call) and called_name(value.func) == "dict" and not value.args:
        return [k.arg for k in value.keywords]
    return [None]


def _dotted(obj: ast.expr) -> str | None:
    """``obj``'s dotted name, where it is names and attributes alone (no call, no subscript)."""
    root = obj
    while isinstance(root, ast.Attribute):
        root = root.value
    return full_name(obj) if isinstance(root, ast.Name) else None


def _inert(call: ast.Call) -> bool:
    """Code from a string that names no API name nor setter: it binds none of them."""
    code = _constant(call.args[0]) if call.args else None
    return code is not None and not any(word in code for word in (*API_NAMES, *_SETTERS, "__dict__", "exec", "eval"))


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
