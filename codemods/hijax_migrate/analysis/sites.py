"""Where a module names ``.attr``, and on what: the sites of a rule's uses,
read from ``ast`` alone (the other files of a tree are never given to libcst).

Each site says what the object before the dot is, as far as the module
itself tells: ``self``/``cls`` in a method, ``super()`` or ``super(C, obj)``,
a dotted name (resolved later, by ``reach``, through scopes and imports), a
class picked from the instance's own (``ROOTED``, below), or something else
(an instance of unknown class). A call's argument count is kept: a call that
cannot bind a rule's signature cannot reach it.

``ROOTED``: the data model reaches the classes of an instance's hierarchy from
the instance or its class through ``type(o)`` and ``o.__class__`` (its class),
``__mro__``, ``mro()``, ``__bases__``, ``__base__``, ``__orig_bases__`` and
``inspect.getmro`` (its classes in order), ``__subclasses__()`` (those below),
``super(A, o)`` with arguments (the order after ``A``), ``getattr(o, K)`` of such
a class, and items, ``next``/``iter``/``reversed``/``list``/``tuple`` of those. Such
an object is some class of the hierarchy, picked when the code runs: the lookup
may start at any class of the order of the method's class or of a subclass.
An attribute of the instance (``self.op``) holds a value, not its class: unknown.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .line_walk import spans

SELF, SUPER, NAME, UNKNOWN, ROOTED = "self", "super", "name", "unknown", "rooted"
CLASS_LINKS = frozenset({"__class__", "__mro__", "__bases__", "__base__", "__orig_bases__"})
CLASS_CALLS = frozenset({"mro", "__subclasses__"})  # ``type(self).mro()``: a class's methods giving classes
PASSING = frozenset({"type", "next", "iter", "reversed", "list", "tuple", "getmro", "getattr"})  # builtins


@dataclass(frozen=True)
class Site:
    line: int
    how: str  # SELF, SUPER (``name``: C of ``super(C, obj)``, or None), NAME, ROOTED, UNKNOWN
    cls: str | None  # qualname of the class whose method (or body) it stands in
    name: str | None = None  # the dotted name before the dot (NAME), or super's class
    args: int | None = None  # the call's positional arguments; None: no call, or starred or keyword ones
    form: str | None = None  # the access's code, where ROOTED (for a finding)
    function: str | None = None  # the name of the innermost function it stands in (None: none)


def sites(tree: ast.Module, attr: str, lines: list[int] | None = None) -> list[Site]:
    """Every ``.attr`` of ``tree``, in source order. ``lines``: sorted, every
    line the name stands on (a superset), where known: statements spanning
    none of them are not walked (most of a module)."""
    walker = _Walker(attr, lines)
    walker.visit(tree)
    return sorted(walker.found, key=lambda site: site.line)


class _Walker(ast.NodeVisitor):
    def __init__(self, attr: str, lines: list[int] | None):
        self.attr, self.lines = attr, lines
        self.found: list[Site] = []
        # (kind "class"/"def", qualname, names bound there, its first parameter)
        self.frames: list[tuple[str, str, set[str] | _Bound, str | None]] = []
        self.compared: set[int] = set()  # ids of the operands of ``is``/``is not`` comparisons

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)
        self._inside(("class", self._qualname(node.name), set(), None), node.body)

    def visit_FunctionDef(self, node) -> None:
        for part in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
            if part is not None:
                self.visit(part)
        first = _first_parameter(node)
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        frame = ("def", self._qualname(node.name) + ".<locals>", _Bound(node), None if static else first)
        self._inside(frame, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        frame = ("def", self._qualname("<lambda>") + ".<locals>", _Bound(node), _first_parameter(node))
        self._inside(frame, [node.body])

    def visit_Module(self, node: ast.Module) -> None:
        for stmt in node.body:
            if self._spans_a_line(stmt):
                self.visit(stmt)

    def _inside(self, frame, body) -> None:
        self.frames.append(frame)
        for stmt in body:
            if self._spans_a_line(stmt):
                self.visit(stmt)
        self.frames.pop()

    def _spans_a_line(self, node) -> bool:
        """Does the statement (with its decorators) span a line the name stands on?"""
        return self.lines is None or not isinstance(node, ast.stmt) or spans(node, self.lines)

    def _qualname(self, name: str) -> str:
        return f"{self.frames[-1][1]}.{name}" if self.frames else name

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr == self.attr:
            # starred or keyword arguments: any parameter may take them
            loose = node.keywords or any(isinstance(a, ast.Starred) for a in node.args)
            self._record(node.func, None if loose else len(node.args))
            for part in [node.func.value, *node.args, *node.keywords]:
                self.visit(part)
        else:
            self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            self.compared.update(id(operand) for operand in [node.left, *node.comparators])
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == self.attr:
            self._record(node, None)
        self.generic_visit(node)

    def _record(self, node: ast.Attribute, args: int | None) -> None:
        how, name = self._what(node.value)
        if how == ROOTED and id(node) in self.compared:
            # compared by identity (jax's own ``type(self).vjp_bwd is not HiPrim.vjp_bwd``):
            # nothing is called; which rule it is stays unknown, as any object's
            how, name = UNKNOWN, None
        form = ast.unparse(node) if how == ROOTED else None
        self.found.append(Site(node.lineno, how, self._owner(), name, args, form, self._function()))

    def _function(self) -> str | None:
        """The innermost function around (``<lambda>`` for a lambda)."""
        return next((frame_name(frame) for frame in reversed(self.frames) if frame[0] == "def"), None)

    def _owner(self) -> str | None:
        """The innermost class around, when only functions stand between."""
        for kind, qualname, _, _ in reversed(self.frames):
            if kind == "class":
                return qualname
        return None

    def _what(self, value: ast.expr) -> tuple[str, str | None]:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            if not value.args:
                return SUPER, None
            named = _dotted(value.args[0])
            if named and not self._local(named):
                return SUPER, named
        root = self._rooted(value)
        if root is not None:
            if self._is_self(root):
                return ROOTED, None
            return (ROOTED, root) if not self._local(root) else (UNKNOWN, None)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            return UNKNOWN, None
        named = _dotted(value)
        if named is None or self._local(named):
            return (SELF, None) if named is not None and self._is_self(named) else (UNKNOWN, None)
        return NAME, named

    def _rooted(self, expr: ast.expr) -> str | None:
        """The dotted name (``self``, a class) whose hierarchy ``expr`` picks a class from
        (``ROOTED``), through at least one step that gives a class; None if it does not."""
        if isinstance(expr, ast.Attribute):
            return self._base(expr.value) if expr.attr in CLASS_LINKS else self._rooted(expr.value)
        if isinstance(expr, ast.Subscript):
            return self._rooted(expr.value)
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in CLASS_CALLS:
            return self._base(func.value)
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name == "super":  # the lookup walks the second argument's order: its root first
            roots = [root for root in map(self._base, reversed(expr.args)) if root is not None]
            return next((root for root in roots if self._is_self(root)), roots[0] if roots else None)
        if name not in PASSING or not expr.args:
            return None
        return self._base(expr.args[0]) if name in ("type", "getmro") else self._rooted(expr.args[0])

    def _base(self, expr: ast.expr) -> str | None:
        """A dotted name, or a class picked from one's hierarchy: where a step may start."""
        return self._rooted(expr) or _dotted(expr)

    def _method(self) -> int | None:
        """The index of the frame of the method the site is in."""
        kinds = [frame[0] for frame in self.frames]
        last = len(kinds) - 1 - kinds[::-1].index("class") if "class" in kinds else None
        return last + 1 if last is not None and last + 1 < len(kinds) else None

    def _is_self(self, name: str) -> bool:
        """The method's first parameter (``self``, ``cls``), not bound again in a nested function."""
        method = self._method()
        if method is None or name != self.frames[method][3]:
            return False
        return not any(name in frame[2] for frame in self.frames[method + 1 :])

    def _local(self, dotted: str) -> bool:
        """Is the head of ``dotted`` bound in a function around the site?"""
        head = dotted.partition(".")[0]
        return any(kind == "def" and head in bound for kind, _, bound, _ in self.frames)


def _dotted(expr: ast.expr) -> str | None:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    return ".".join([expr.id, *reversed(parts)]) if isinstance(expr, ast.Name) else None


class _Bound:
    """The names a function binds (``_bound``), read from its body when first asked: most of
    the functions a walk enters hold no site to ask of them."""

    __slots__ = ("func", "names")

    def __init__(self, func):
        self.func, self.names = func, None

    def __contains__(self, name: str) -> bool:
        if self.names is None:
            self.names = _bound(self.func)
        return name in self.names


def frame_name(frame: tuple) -> str:
    """The name of a function's frame (its qualname is ``Outer.name.<locals>``)."""
    return frame[1].rsplit(".", 2)[-2]


def _first_parameter(func) -> str | None:
    params = [*func.args.posonlyargs, *func.args.args]
    return params[0].arg if params else None


def _bound(func) -> set[str]:
    """The names a function binds (parameters, assignments, imports...)."""
    args = func.args
    params = [*args.posonlyargs, *args.args]
    names = {a.arg for a in [*params, *args.kwonlyargs, args.vararg, args.kwarg] if a is not None}
    body = func.body if isinstance(func.body, list) else [func.body]
    for node in (sub for stmt in body for sub in _own_nodes(stmt)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names)
    return names


def _own_nodes(node: ast.AST):
    """``node`` and what it holds, not entering nested functions and classes:
    their names are theirs (their own name is bound here)."""
    stack = [node]
    while stack:
        sub = stack.pop()
        yield sub
        if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(sub))
