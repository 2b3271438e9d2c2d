"""Where a module names ``.attr``, and on what: the sites of a rule's uses,
read from ``ast`` alone (the other files of a tree are never given to libcst).

Each site says what the object before the dot is, as far as the module
itself tells: ``self``/``cls`` in a method, ``super()`` or ``super(C, obj)``,
a dotted name (resolved later, by ``reach``, through scopes and imports), or
something else (an instance of unknown class). A call's argument count is kept:
a call that cannot bind a rule's signature cannot reach it.
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass

SELF, SUPER, NAME, UNKNOWN = "self", "super", "name", "unknown"


@dataclass(frozen=True)
class Site:
    line: int
    how: str  # SELF, SUPER (``name``: C of ``super(C, obj)``, or None), NAME, UNKNOWN
    cls: str | None  # qualname of the class whose method (or body) it stands in
    name: str | None = None  # the dotted name before the dot (NAME), or super's class
    args: int | None = None  # the call's positional arguments; None: no call, or starred or keyword ones


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
        self.frames: list[tuple[str, str, set[str], str | None]] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)
        self._inside(("class", self._qualname(node.name), set(), None), node.body)

    def visit_FunctionDef(self, node) -> None:
        for part in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
            if part is not None:
                self.visit(part)
        bound, first = _bound(node)
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        self._inside(("def", self._qualname(node.name) + ".<locals>", bound, None if static else first), node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._inside(("def", self._qualname("<lambda>") + ".<locals>", *_bound(node)), [node.body])

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
        if self.lines is None or not isinstance(node, ast.stmt):
            return True
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        at = bisect.bisect_left(self.lines, first)
        return at < len(self.lines) and self.lines[at] <= node.end_lineno

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

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == self.attr:
            self._record(node, None)
        self.generic_visit(node)

    def _record(self, node: ast.Attribute, args: int | None) -> None:
        how, name = self._what(node.value)
        self.found.append(Site(node.lineno, how, self._owner(), name, args))

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
            return (SUPER, named) if named and not self._local(named) else (UNKNOWN, None)
        named = _dotted(value)
        if named is None or self._local(named):
            return (SELF, None) if named is not None and self._is_self(named) else (UNKNOWN, None)
        return NAME, named

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


def _bound(func) -> tuple[set[str], str | None]:
    """The names a function binds (parameters, assignments, imports...), and its first parameter."""
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
    return names, params[0].arg if params else None


def _own_nodes(node: ast.AST):
    """``node`` and what it holds, not entering nested functions and classes:
    their names are theirs (their own name is bound here)."""
    stack = [node]
    while stack:
        sub = stack.pop()
        yield sub
        if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(sub))
