"""A cheap summary of one module: its classes, their bases and its bindings.

Built with the stdlib ``ast`` parser, which is tens of times faster than
libcst: the project index summarises any module a subclass chain runs
through, while only files that may need a rewrite are parsed with libcst.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field


class Kind(enum.Enum):
    """What a class is, as far as hijax is concerned."""

    NONE = "not a hijax primitive"
    EXTERNAL = "undecidable: a base from outside the tree"
    NEWSTYLE = "NewstyleHiPrimitive"  # jax 0.8.0
    VJP = "VJPHiPrimitive"  # jax 0.8.1 to 0.11.1
    HIPRIM = "HiPrim"  # jax 0.11.2 and newer
    OLD = "HiPrimitive"  # the core.Primitive-based API, gone in 0.11.2

    @property
    def is_primitive(self) -> bool:
        return self in (Kind.NEWSTYLE, Kind.VJP, Kind.HIPRIM)


# When bases disagree (a mixin, a version switch) the most specific wins.
_PRIORITY = (Kind.VJP, Kind.HIPRIM, Kind.NEWSTYLE, Kind.OLD, Kind.EXTERNAL, Kind.NONE)


def strongest(kinds) -> Kind:
    present = set(kinds)
    return next((kind for kind in _PRIORITY if kind in present), Kind.NONE)


@dataclass(eq=False)
class Scope:
    parent: Scope | None
    is_class: bool = False
    # name -> every way it is bound: ("import", "a.b") | ("class", ClassInfo)
    # | ("value", [dotted names the value may be], Scope)
    bindings: dict[str, list[tuple]] = field(default_factory=dict)

    def bind(self, name: str, binding: tuple) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def lookup(self, name: str) -> list[tuple]:
        """Python's rule: the own scope, then enclosing non-class scopes."""
        scope, first = self, True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.bindings:
                return scope.bindings[name]
            scope, first = scope.parent, False
        return []


@dataclass(eq=False)
class ClassInfo:
    qualname: str  # as __qualname__: "Op", "Outer.Op", "f.<locals>.Op"
    lineno: int
    bases: list[str | None]  # dotted base expressions; None: not a name
    scope: Scope  # where the class statement stands


@dataclass(eq=False)
class ModuleSummary:
    module: str
    scope: Scope
    classes: list[ClassInfo]


def dotted_name(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        head = dotted_name(expr.value)
        return f"{head}.{expr.attr}" if head else None
    if isinstance(expr, ast.Subscript):  # Generic-style bases: Base[T]
        return dotted_name(expr.value)
    return None


def _value_refs(expr: ast.expr | None) -> list[str]:
    """The names an assigned value may evaluate to (``A if c else B``)."""
    if isinstance(expr, ast.IfExp):
        return _value_refs(expr.body) + _value_refs(expr.orelse)
    if isinstance(expr, ast.BoolOp):
        return [ref for value in expr.values for ref in _value_refs(value)]
    name = dotted_name(expr) if expr is not None else None
    return [name] if name else []


def resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    parts = module.split(".") if module else []
    keep = len(parts) - level + (1 if is_package else 0)
    base = parts[: max(keep, 0)]
    return ".".join(base + ([target] if target else []))


class _Builder:
    def __init__(self, module: str, is_package: bool):
        self.module, self.is_package = module, is_package
        self.classes: list[ClassInfo] = []

    def block(self, body: list[ast.stmt], scope: Scope, prefix: str) -> None:
        for stmt in body:
            self.statement(stmt, scope, prefix)

    def statement(self, stmt: ast.stmt, scope: Scope, prefix: str) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope.bind(stmt.name, ("value", [], scope))
            self.block(stmt.body, Scope(scope), f"{prefix}{stmt.name}.<locals>.")
        elif isinstance(stmt, ast.ClassDef):
            info = ClassInfo(f"{prefix}{stmt.name}", stmt.lineno,
                             [dotted_name(base) for base in stmt.bases], scope)
            self.classes.append(info)
            scope.bind(stmt.name, ("class", info))
            self.block(stmt.body, Scope(scope, is_class=True), f"{info.qualname}.")
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.imports(stmt, scope)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    scope.bind(target.id, ("value", _value_refs(stmt.value), scope))
        else:  # if/try/with/for/while/match: same scope, nested statements
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    self.statement(child, scope, prefix)
                elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    self.block(child.body, scope, prefix)

    def imports(self, stmt: ast.Import | ast.ImportFrom, scope: Scope) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    scope.bind(alias.asname, ("import", alias.name))
                else:
                    head = alias.name.split(".")[0]
                    scope.bind(head, ("import", head))
            return
        source = stmt.module or ""
        if stmt.level:
            source = resolve_relative(self.module, self.is_package, stmt.level, stmt.module)
        for alias in stmt.names:
            if alias.name != "*":
                qualified = f"{source}.{alias.name}" if source else alias.name
                scope.bind(alias.asname or alias.name, ("import", qualified))


def summarize(source: str | bytes, module: str = "", is_package: bool = False) -> ModuleSummary:
    """Summarise ``source``; raises SyntaxError/ValueError for unparsable code."""
    tree = ast.parse(source)
    builder = _Builder(module, is_package)
    scope = Scope(None)
    builder.block(tree.body, scope, "")
    return ModuleSummary(module, scope, builder.classes)
