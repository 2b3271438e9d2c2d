"""Where a module reaches an attribute by a string: the references by name.

Python's data model reaches a class attribute by a string in these forms:
``getattr``/``hasattr``/``setattr``/``delattr``, ``inspect.getattr_static``,
``operator.attrgetter`` (each dotted part) and ``operator.methodcaller``,
``__getattribute__`` and its kin called by hand, and the class namespace as a
mapping: ``X.__dict__`` or ``vars(X)`` subscripted, asked ``.get``/``.pop``/
``.setdefault``, or tested with ``in``. Any other use of a namespace
(iterated, ``.items()``, handed on), ``dir(X)`` and ``inspect.getmembers(X)``
reach every name of it: the key is unknown. A comparison with a string
(``name == "vjp_bwd"``, a ``case "vjp_bwd":``) is how ``__getattribute__`` or a
walk of a namespace picks a rule out: a reference on an object not known. A
key is evaluated as Python would (``constants``): known strings, or unknown.

The object is read as ``sites`` reads the one before a dot (``self``/``cls``
in a method, ``super()``, a dotted name, else unknown), and also
``type(self)``, ``self.__class__``, and the parameter of a function that
this module applies as a class decorator (the classes it decorates).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..core.line_breaks import lines_kept
from .constants import ModuleConstants, Values
from .names import called_name
from .sites import NAME, SELF, UNKNOWN, Site, _Walker, frame_name

GETTERS = frozenset({"getattr", "hasattr", "setattr", "delattr", "getattr_static"})
GET, SET, NAMESPACE, OTHER = "get", "set", "namespace", "other"
_KINDS = {"getattr": GET, "hasattr": GET, "setattr": SET, "delattr": SET}
DUNDERS = frozenset({"__getattribute__", "__getattr__", "__setattr__", "__delattr__"})
MAPPING_METHODS = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__", "__setitem__"})
LISTINGS = frozenset({"getmembers", "getmembers_static"})  # names with their values
_CLASS_FIRST = frozenset({"__init_subclass__", "__new__", "__class_getitem__", "__prepare__"})  # called with a class


@dataclass(frozen=True)
class NameRef:
    line: int
    form: str  # the reference's code, as the user wrote it
    sites: tuple[Site, ...]  # what the object may be (one a decorated class)
    names: Values | None  # the names it may reach; None: any
    literal: ast.Constant | None = None  # the key, where it is a string literal standing in the reference
    kind: str = GET  # GET (through the class's order), SET (setattr, delattr), NAMESPACE (its own dict), OTHER
    method: str | None = None  # the function it stands in, where that is a method of a class
    function: tuple[int, int] | None = None  # the lines of the function it stands in (None: module level)
    value: ast.expr | None = None  # what ``setattr`` sets


def name_refs(tree: ast.Module, constants: ModuleConstants, source: str | None = None) -> list[NameRef]:
    """Every reference by name in ``tree``, in source order."""
    walker = _RefWalker(constants, _decorated(tree), source)
    walker.visit(tree)
    return sorted(walker.refs, key=lambda ref: ref.line)


def _decorated(tree: ast.Module) -> dict[str, list[str]]:
    """Functions named as a decorator of a top-level class statement -> those classes."""
    found: dict[str, list[str]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            for deco in stmt.decorator_list:
                if isinstance(deco, ast.Name):
                    found.setdefault(deco.id, []).append(stmt.name)
    return found


class _RefWalker(_Walker):
    def __init__(self, constants: ModuleConstants, decorated: dict[str, list[str]], source: str | None):
        super().__init__("", None)
        self.constants, self.decorated, self.source = constants, decorated, source
        self._lines: list[str] | None = None
        self.refs: list[NameRef] = []
        self.functions: list[ast.AST] = []  # the functions around, innermost last
        self.parents: dict[int, ast.AST] = {}

    def visit(self, node):
        for child in ast.iter_child_nodes(node):
            self.parents[id(child)] = node
        return super().visit(node)

    def visit_FunctionDef(self, node) -> None:
        self.functions.append(node)
        super().visit_FunctionDef(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node) -> None:
        self.functions.append(node)
        super().visit_Lambda(node)
        self.functions.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "__dict__":
            self._namespace(node, node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = called_name(node.func)
        if name in GETTERS and len(node.args) >= 2:
            plain = isinstance(node.func, ast.Name)
            value = node.args[2] if name == "setattr" and len(node.args) == 3 else None
            self._add(node, node.args[0], node.args[1], kind=_KINDS.get(name, OTHER) if plain else OTHER, value=value)
        elif name in DUNDERS and isinstance(node.func, ast.Attribute):
            self._dunder(node)
        elif name == "attrgetter":
            self._add(node, None, None, self._dotted_keys(node.args))
        elif name == "methodcaller" and node.args:
            self._add(node, None, node.args[0])
        elif name == "vars" and len(node.args) == 1:
            self._namespace(node, node.args[0])
        elif name in LISTINGS and node.args:
            self._add(node, node.args[0], None, None)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        """``name == "vjp_bwd"``: how ``__getattribute__``, ``__setattr__`` or a walk of a
        namespace picks a rule out by its name; the name's object is not known here."""
        operands = [node.left, *node.comparators]
        if not any(is_namespace(o) for o in operands):  # ``K in vars(X)``: read by ``_namespace``
            for operand in operands:
                if isinstance(operand, (ast.Constant, ast.BinOp, ast.JoinedStr)):
                    self._add(node, None, operand)
        self.generic_visit(node)

    def visit_MatchValue(self, node) -> None:
        self._add(node, None, node.value)
        self.generic_visit(node)

    def _dunder(self, node: ast.Call) -> None:
        """``object.__getattribute__(o, "n")``, or ``o.__getattribute__("n")``."""
        through_type = isinstance(node.func.value, ast.Name) and node.func.value.id in ("object", "type")
        if through_type and len(node.args) >= 2:
            self._add(node, node.args[0], node.args[1])
        elif not through_type and node.args:
            self._add(node, node.func.value, node.args[0])

    def _dotted_keys(self, args: list[ast.expr]) -> Values | None:
        found = Values()
        for arg in args:
            values = None if isinstance(arg, ast.Starred) else self.constants.strings(arg, self.functions)
            if values is None:
                return None
            found |= Values(part for value in values for part in value.split("."))
        return found

    def _namespace(self, node: ast.expr, obj: ast.expr) -> None:
        """``X.__dict__`` or ``vars(X)``: the key it is read with, where it stands in a mapping read."""
        if self._instance(obj):
            return  # an instance's own dict holds no class attribute (the data model: ``type(o).__dict__`` does)
        parent = self.parents.get(id(node))
        key: ast.expr | None = None
        if isinstance(parent, ast.Subscript) and parent.value is node:
            key = parent.slice
        elif isinstance(parent, ast.Attribute) and parent.attr in MAPPING_METHODS:
            call = self.parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent and call.args:
                parent, key = call, call.args[0]
        elif isinstance(parent, ast.Compare) and node in parent.comparators:
            at = parent.comparators.index(node)
            if isinstance(parent.ops[at], (ast.In, ast.NotIn)):
                key = ([parent.left, *parent.comparators])[at]
        self._add(parent if key is not None else node, obj, key, None if key is None else ..., NAMESPACE)

    def _instance(self, obj: ast.expr) -> bool:
        """Is ``obj`` the instance: the first parameter of a plain method (no ``classmethod``,
        ``staticmethod``, nor one Python calls with the class) of a class that is no metaclass?"""
        if not (isinstance(obj, ast.Name) and self._is_self(obj.id)):
            return False
        method = next((f for f in reversed(self.functions) if isinstance(self.parents.get(id(f)), ast.ClassDef)), None)
        if (
            method is None
            or method.name in _CLASS_FIRST
            or not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
        ):
            return False
        owner = self.parents[id(method)]
        decorated = any(
            not isinstance(deco, ast.Name) or deco.id in ("classmethod", "staticmethod")
            for deco in method.decorator_list
        )
        return not decorated and not any(isinstance(base, ast.Name) and base.id == "type" for base in owner.bases)

    def _add(self, node, obj: ast.expr | None, key: ast.expr | None, names=..., kind: str = OTHER, value=None) -> None:
        if names is ...:
            names = None if key is None or isinstance(key, ast.Starred) else self.constants.strings(key, self.functions)
        literal = key if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
        around = self.functions[-1] if self.functions else None
        span = (around.lineno, around.end_lineno) if around is not None else None
        sites = self._objects(obj)
        method = self._method_name()
        self.refs.append(NameRef(node.lineno, self._code(node), sites, names, literal, kind, method, span, value))

    def _method_name(self) -> str | None:
        method = self._method()
        return frame_name(self.frames[method]) if method is not None else None

    def _objects(self, obj: ast.expr | None) -> tuple[Site, ...]:
        owner = self._owner()
        if obj is None:
            return (Site(0, UNKNOWN, owner),)
        obj = _unwrapped_type(obj)
        if isinstance(obj, ast.Name) and obj.id in self._decorator_param():
            return tuple(Site(obj.lineno, NAME, None, cls) for cls in self._decorator_param()[obj.id])
        how, name = self._what(obj)
        return (Site(obj.lineno, how, owner, name),)

    def _decorator_param(self) -> dict[str, list[str]]:
        """The first parameter of the module-level function around, where the module
        applies that function to class statements: the classes it stands for."""
        outer = self.functions[0] if self.functions else None
        if outer is None or outer.name not in self.decorated if hasattr(outer, "name") else True:
            return {}
        params = [*outer.args.posonlyargs, *outer.args.args]
        if not params or any(frame[0] == "class" for frame in self.frames):
            return {}
        return {params[0].arg: self.decorated[outer.name]}

    def _code(self, node: ast.AST) -> str:
        code = self._segment(node) if self.source is not None else None
        code = code if code is not None else ast.unparse(node)
        return code if len(code) <= 60 else code[:57] + "..."

    def _segment(self, node: ast.AST) -> str | None:
        """``ast.get_source_segment``'s text, from lines split once (it splits the source each call)."""
        if self._lines is None:
            self._lines = lines_kept(self.source)
        first, last = node.lineno - 1, node.end_lineno - 1
        if node.end_col_offset is None or last >= len(self._lines):
            return None
        if first == last:
            return self._lines[first].encode()[node.col_offset : node.end_col_offset].decode()
        head = self._lines[first].encode()[node.col_offset :].decode()
        tail = self._lines[last].encode()[: node.end_col_offset].decode()
        return "".join([head, *self._lines[first + 1 : last], tail])


def is_namespace(expr: ast.expr) -> bool:
    return (isinstance(expr, ast.Attribute) and expr.attr == "__dict__") or (
        isinstance(expr, ast.Call) and called_name(expr.func) == "vars"
    )


def _unwrapped_type(obj: ast.expr) -> ast.expr:
    """``type(self)`` and ``self.__class__`` are read as ``self``: the instance's class."""
    if isinstance(obj, ast.Call) and isinstance(obj.func, ast.Name) and obj.func.id == "type" and len(obj.args) == 1:
        return obj.args[0]
    if isinstance(obj, ast.Attribute) and obj.attr == "__class__":
        return obj.value
    return obj


__all__ = ["NameRef", "name_refs", "is_namespace", "SELF", "GET", "SET", "NAMESPACE", "OTHER"]
