"""The names a module binds and reads, by scope, from one ``ast`` walk.

libcst's ScopeProvider makes this analysis over its own tree (1.7 s of jax's
67 kB hijax_test.py, against 0.04 s for ``ast``'s parse). Python's scopes:
module, class, function, lambda, comprehension (the first iterable is read
where the comprehension stands); a class body is not seen from the functions
in it; ``global`` and ``nonlocal`` are recorded, never guessed through.

A binding is ``(scope, node)``: an ``ast.alias`` of an import (with its
statement), a def or class, a stored name, a parameter, a handler's or
pattern's name. A read is ``(scope, ast.Name)`` in a load or del context.
Callers ask whether a name is bound only by module-level imports (where
libcst's answers follow from the imports alone) and what those imports
qualify a dotted name to, as libcst's ``ImportAssignment`` does.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

from ..core.stmts import FIELDS
from ..sources.parse import kept_fact

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(eq=False)
class NameScope:
    kind: str  # "module", "class", "function", "lambda", "comprehension", "annotation"
    parent: NameScope | None
    name: str | None = None  # a function's or class's
    # A class body that runs as its block's straight-line code does: its statement stands
    # at that block's top level, in no compound statement and no loop (``straight``).
    in_order: bool = False

    @property
    def prefix(self) -> str:
        """What libcst's qualified names of the names bound here start with
        (``f.<locals>``, ``C``, ``f.<locals>.<comprehension>``; none at module level)."""
        if self.parent is None or self.kind == "annotation":
            return self.parent.prefix if self.parent is not None else ""
        own = {"class": [self.name], "comprehension": ["<comprehension>"]}.get(self.kind, [self.name, "<locals>"])
        return ".".join(filter(None, [self.parent.prefix, *own]))


@dataclass(eq=False)
class Binding:
    scope: NameScope
    node: ast.AST  # the alias, def, class, Name, arg, handler or pattern
    statement: ast.stmt | None = None  # an alias's import statement
    within: ast.stmt | None = None  # the innermost statement the binding stands in (none: a parameter)
    after: tuple[int, int] | None = None  # where the code has made it, once it is made (``_made_at``)
    guarded: bool = False  # in a compound statement of its block (an ``if``, a loop, a ``try``...)
    walrus: bool = False  # the target of a ``:=``


@dataclass
class NameModel:
    """Every binding and read of the module, by name."""

    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    reads: dict[str, list[tuple[NameScope, ast.Name]]] = field(default_factory=dict)
    declared: set[str] = field(default_factory=set)  # names in ``global`` or ``nonlocal``
    stars: list[ast.ImportFrom] = field(default_factory=list)
    star_bindings: list[Binding] = field(default_factory=list)  # each ``import *``, where and how it binds
    strings: list[str] = field(default_factory=list)  # string constants but docstrings
    typed_strings: list[str] = field(default_factory=list)  # those that may be read as types (``typed``)
    formatted: set[str] = field(default_factory=set)  # names read inside f-strings
    # ids of the reads a block runs once, in order: at its top level, in no loop (``resolution``)
    straight: set[int] = field(default_factory=set)
    attributes: dict[str, list[ast.Attribute]] = field(default_factory=dict)  # ``.attr`` -> its attributes
    import_froms: list[ast.ImportFrom] = field(default_factory=list)
    assignments: list[ast.Assign | ast.AnnAssign] = field(default_factory=list)  # in source order

    @classmethod
    def of(cls, tree: ast.Module) -> NameModel:
        """The model of ``tree``: walked once for the file in hand (``parse.kept_fact``)."""
        return kept_fact(tree, "names", cls._walked)

    @classmethod
    def _walked(cls, tree: ast.Module) -> NameModel:
        model = cls()
        _Walk(model).module(tree)
        return model

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def imported_only(self, name: str) -> list[Binding] | None:
        """The module-level import aliases that bind ``name``, where nothing
        else does, anywhere (no other binding, no ``global``/``nonlocal``);
        None where something else may."""
        found = self.bindings.get(name, [])
        if name in self.declared or any(b.scope.kind != "module" or b.statement is None for b in found):
            return None
        return found

    def read_after(self, name: str, found: list[Binding]) -> bool:
        """Does every module-level read of ``name`` stand after every binding of it?"""
        last = max(((b.statement.end_lineno, b.statement.end_col_offset) for b in found), default=(0, 0))
        return all(
            (node.lineno, node.col_offset) > last for scope, node in self.reads.get(name, ()) if scope.kind == "module"
        )

    def module_constant(self, name: str) -> ast.Assign | ast.AnnAssign | None | bool:
        """The statement that binds ``name``, where it is bound once, at module
        level, as the one target of an assignment (``X = ...``, ``X: T = ...``);
        None where it is bound otherwise; False where the model cannot be sure
        (bound in a nested scope, or by a pattern: libcst's scopes decide)."""
        found = self.bindings.get(name, [])
        if name in self.declared or any(b.scope.kind != "module" or _is_pattern(b.node) for b in found):
            return False
        if len(found) != 1 or not isinstance(found[0].node, ast.Name):
            return None
        node = found[0].node
        return next(
            (
                stmt
                for stmt in self.assignments
                if (stmt.targets == [node] if isinstance(stmt, ast.Assign) else stmt.target is node)
            ),
            None,
        )

    def module_function(self, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The ``def`` of ``name`` where it is the one binding of the name anywhere in the
        module (no other in any scope, no ``global``/``nonlocal``): what any scope reads by it."""
        found = self.bindings.get(name, [])
        if name in self.declared or len(found) != 1 or found[0].scope.kind != "module":
            return None
        node = found[0].node
        return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    def in_strings(self, name: str) -> bool:
        return any(name in text for text in self.strings)

    def reads_in_order(self, name: str) -> list[ast.Name]:
        return sorted((node for _, node in self.reads.get(name, ())), key=lambda n: (n.lineno, n.col_offset))

    def attributes_in_order(self, attr: str) -> list[ast.Attribute]:
        """``.attr`` attributes, in the order a visit enters them (an outer chain first)."""
        return sorted(
            self.attributes.get(attr, ()), key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset)
        )


def _is_pattern(node: ast.AST) -> bool:
    return type(node).__name__ in ("MatchAs", "MatchStar", "MatchMapping")


def sure_names(model: NameModel | None, full: str | None) -> tuple[str, set[str]] | None:
    """The qualified names of a dotted name read at module level or in a function, where the
    model is sure of them: ("builtin", ...) for a builtin, ("import", ...) for what the imports
    binding its longest bound prefix make it, ("local", ...) where only the module's own
    assignments, ``def`` and ``class`` bind its head (``local_names``); None elsewhere."""
    if full is None:
        return "import", set()
    if model is None:
        return None
    head = full.partition(".")[0]
    if head not in model.bindings and head not in model.declared:
        return ("builtin", {f"builtins.{head}"}) if is_builtin(head) else ("import", set())
    found = model.imported_only(head)
    if found is None:
        local = local_names(model, head, full)
        return ("local", local) if local is not None else None
    if not found or not model.read_after(head, found):
        return None
    prefix = full
    while prefix:
        statements = {id(b.statement): b.statement for b in model.bindings.get(prefix, ())}
        if statements:
            return "import", {name for stmt in statements.values() for name in import_qualified(stmt, full)}
        prefix = prefix.rpartition(".")[0]
    return "import", set()


def local_names(model: NameModel, head: str, full: str) -> set[str] | None:
    """libcst's names of a dotted name whose head only the module's assignments, ``def`` and
    ``class`` bind, wherever it is read: the name as the module spells it (a class ``NS``:
    ``NS.Old``). None where an import, a ``global`` or a function's or class body's binding
    may bind it (libcst names those under them: ``f.<locals>.x``), or a builtin's name."""
    bindings = model.bindings.get(head, [])
    if head in model.declared or is_builtin(head) or not bindings:
        return None
    return {full} if all(b.statement is None and b.scope.parent is None for b in bindings) else None


def block_of(binding: Binding) -> NameScope:
    """The block a binding binds in: its own scope's, but a ``:=`` in a comprehension binds
    in the block around the comprehension (the reference, 6.2.8)."""
    block = binding.scope
    while binding.walrus and block.kind == "comprehension" and block.parent is not None:
        block = block.parent
    return block


def is_builtin(name: str) -> bool:
    return hasattr(builtins, name)


def bound_names(stmt: ast.Import | ast.ImportFrom) -> list[tuple[str, ast.alias]]:
    """The names an import binds, as libcst records them: ``import a.b`` binds
    ``a.b`` and ``a``; an alias binds its ``as`` name only."""
    found = []
    for alias in stmt.names:
        if alias.asname:
            found.append((alias.asname, alias))
            continue
        parts = alias.name.split(".")
        found += [(".".join(parts[:i]), alias) for i in range(len(parts), 0, -1)]
    return found


def import_qualified(stmt: ast.Import | ast.ImportFrom, full_name: str) -> set[str]:
    """What libcst's ``ImportAssignment.get_qualified_names_for(full_name)``
    answers for an assignment made by ``stmt``: every alias of the statement
    whose bound name is a prefix of ``full_name`` names the import."""
    module = ""
    if isinstance(stmt, ast.ImportFrom):
        module = "." * stmt.level + (stmt.module or "")
    results = set()
    for alias in stmt.names:
        parts = alias.name.split(".")
        for real in (".".join(parts[:i]) for i in range(len(parts), 0, -1)):
            as_name = alias.asname or real
            if module.endswith("."):
                real = f"{module}{real}"
            elif module:
                real = f"{module}.{real}"
            if full_name.startswith(as_name):
                rest = full_name.split(as_name, 1)[1]
                if rest and not rest.startswith("."):
                    continue
                rest = rest.lstrip(".")
                results.add(f"{real}.{rest}" if rest else real)
                break
    return results


# The statements that hold blocks (``core.stmts.FIELDS``): the others are simple.
_COMPOUND = frozenset(
    kind
    for kind in vars(ast).values()
    if isinstance(kind, type) and issubclass(kind, ast.stmt) and any(field in kind._fields for field in FIELDS)
)


def _end(node: ast.AST) -> tuple[int, int]:
    return node.end_lineno, node.end_col_offset


def _made_at(node: ast.AST, within: ast.stmt | None) -> tuple[int, int] | None:
    """Where, in the order code runs in a block, a binding is made: the end of its simple
    statement (``X = f(X)`` reads before it binds), of a ``def`` or ``class``, of a handler's
    type (``except E as X``), of a target or pattern in a compound statement (``with``, ``case``)."""
    if isinstance(node, ast.ExceptHandler):
        return _end(node.type) if node.type is not None else (node.lineno, node.col_offset)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return _end(node)
    if within is not None and type(within) not in _COMPOUND:
        return _end(within)
    return _end(node) if hasattr(node, "end_lineno") else None


def called_name(func: ast.expr) -> str | None:
    """The name a call calls: ``f`` or ``mod.f`` (``typing.cast``: ``cast``)."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def parameters(args: ast.arguments) -> list[ast.arg]:
    """Every parameter, in source order: positional-only, positional, ``*args``, keyword-only, ``**kwargs``."""
    return [*args.posonlyargs, *args.args, *filter(None, [args.vararg]), *args.kwonlyargs, *filter(None, [args.kwarg])]


def evaluated_outside(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef) -> list[ast.AST]:
    """What a ``def``, ``lambda`` or ``class`` evaluates where it stands, before its body runs
    (if ever): decorators, bases and keywords, defaults, annotations, the return annotation."""
    args = getattr(node, "args", None)
    found = [*getattr(node, "decorator_list", ()), *getattr(node, "bases", ()), *getattr(node, "keywords", ())]
    if args is not None:
        found += [*args.defaults, *filter(None, args.kw_defaults)]
        found += [p.annotation for p in parameters(args) if p.annotation is not None]
    return found + list(filter(None, [getattr(node, "returns", None)]))


class _Walk:
    """One walk of the module, scopes pushed as Python makes them."""

    def __init__(self, model: NameModel):
        self.model, self.scope = model, NameScope("module", None)
        self.in_fstring = 0
        self.statements: list[ast.stmt] = []  # the statements walked into, innermost last
        self.depth = 0  # of the statements walked into in the current block
        self.guards = 0  # inside what binds only when it runs so: a loop's target, a handler, a pattern
        self.repeats = 0  # inside a ``while``'s test: run again after its body
        self.typing = 0  # inside what a type checker reads as a type, where a string is one
        self.walrus: ast.Name | None = None
        self.made_at: tuple[int, int] | None = None  # where what is bound now is made (``For``, ``NamedExpr``)

    def module(self, tree: ast.Module) -> None:
        self.body(tree.body)

    def body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring, or a bare constant: binds and reads nothing
            self.statements.append(stmt)
            self.depth += 1
            self.node(stmt)
            self.statements.pop()
            self.depth -= 1

    def node(self, node: ast.AST) -> None:
        handler = getattr(self, type(node).__name__, None)
        if handler is not None:
            handler(node)
        else:
            self.children(node)

    def children(self, node: ast.AST) -> None:
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self.body(value)
                else:
                    for item in value:
                        if isinstance(item, ast.AST):
                            self.node(item)
            elif isinstance(value, ast.AST):
                self.node(value)

    # The walk's state is set around what it walks and set back after; an error ends the
    # whole walk (``NameModel.of`` gives no model), so nothing sets it back on one.
    def bind(self, name: str, node: ast.AST, statement: ast.stmt | None = None) -> None:
        self.model.bind(name, self.binding(node, statement))

    def binding(self, node: ast.AST, statement: ast.stmt | None = None) -> Binding:
        """``node``'s binding where the walk stands: its statement, where the code has made
        it, whether a compound statement of its block guards it, whether ``:=`` makes it."""
        within = self.statements[-1] if self.statements else None
        after = self.made_at or _made_at(node, within)
        return Binding(
            self.scope, node, statement, within, after, self.depth > 1 or self.guards > 0, node is self.walrus
        )

    def nested(self, kind: str, visit, name: str | None = None) -> None:
        outer, depth, guards = self.scope, self.depth, self.guards
        in_order = kind == "class" and depth == 1 and not (guards or self.repeats)
        self.scope, self.depth, self.guards = NameScope(kind, outer, name, in_order), 0, 0
        visit()
        self.scope, self.depth, self.guards = outer, depth, guards

    def guarded(self, visit) -> None:
        self.guards += 1
        visit()
        self.guards -= 1

    def For(self, node: ast.For | ast.AsyncFor) -> None:
        self.node(node.iter)
        self.guarded(lambda: self.target(node.target, _end(node.iter)))
        self.body(node.body)
        self.body(node.orelse)

    def target(self, node: ast.expr, made_at: tuple[int, int]) -> None:
        """A target bound once what stands after it in the text has run (a loop's iterable)."""
        self.made_at = made_at
        self.node(node)
        self.made_at = None

    AsyncFor = For

    def While(self, node: ast.While) -> None:
        self.repeats += 1
        self.node(node.test)
        self.repeats -= 1
        self.body(node.body)
        self.body(node.orelse)

    def NamedExpr(self, node: ast.NamedExpr) -> None:
        self.node(node.value)
        self.walrus, self.made_at = node.target, _end(node)
        self.node(node.target)
        self.walrus, self.made_at = None, None

    # -- bindings
    def Import(self, node: ast.Import) -> None:
        for name, alias in bound_names(node):
            self.bind(name, alias, node)

    def ImportFrom(self, node: ast.ImportFrom) -> None:
        self.model.import_froms.append(node)
        if any(alias.name == "*" for alias in node.names):
            self.model.stars.append(node)
            self.model.star_bindings.append(self.binding(node, node))
            return
        for name, alias in bound_names(node):
            self.bind(name, alias, node)

    def Assign(self, node: ast.Assign) -> None:
        self.model.assignments.append(node)
        self.children(node)

    def Global(self, node: ast.Global) -> None:
        self.model.declared.update(node.names)

    Nonlocal = Global

    def Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.bind(node.id, node)
        else:
            self.model.reads.setdefault(node.id, []).append((self.scope, node))
            if self.depth == 1 and not (self.guards or self.repeats):
                self.model.straight.add(id(node))
            if self.in_fstring:
                self.model.formatted.add(node.id)

    def Attribute(self, node: ast.Attribute) -> None:
        self.model.attributes.setdefault(node.attr, []).append(node)
        self.node(node.value)

    def Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.model.strings.append(node.value)
            if self.typing:
                self.model.typed_strings.append(node.value)

    def JoinedStr(self, node: ast.JoinedStr) -> None:
        self.in_fstring += 1
        try:
            self.children(node)
        finally:
            self.in_fstring -= 1

    def ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.guarded(lambda: self.bind(node.name, node))
        self.children(node)

    def MatchAs(self, node) -> None:
        if node.name:
            self.guarded(lambda: self.bind(node.name, node))
        self.children(node)

    def MatchStar(self, node) -> None:
        if node.name:
            self.guarded(lambda: self.bind(node.name, node))

    def MatchMapping(self, node) -> None:
        if node.rest:
            self.guarded(lambda: self.bind(node.rest, node))
        self.children(node)

    # -- scopes
    def FunctionDef(self, node: ast.FunctionDef) -> None:
        self.bind(node.name, node)
        self.type_params(node)
        self.outside(node)
        self.nested("function", lambda: (self.parameters(node.args), self.body(node.body)), node.name)

    AsyncFunctionDef = FunctionDef

    def Lambda(self, node: ast.Lambda) -> None:
        self.outside(node)
        self.nested("lambda", lambda: (self.parameters(node.args), self.node(node.body)))

    def ClassDef(self, node: ast.ClassDef) -> None:
        self.bind(node.name, node)
        self.type_params(node)
        self.outside(node)
        self.nested("class", lambda: self.body(node.body), node.name)

    def type_params(self, node: ast.AST) -> None:
        for param in getattr(node, "type_params", ()):
            self.node(param)

    def TypeVar(self, node) -> None:
        """A type parameter (3.12): bound in a scope of its own, never the module's."""
        self.nested("annotation", lambda: self.bind(node.name, node))
        self.children(node)

    ParamSpec = TypeVarTuple = TypeVar

    def outside(self, node) -> None:
        """``evaluated_outside``: read where the statement stands."""
        args = getattr(node, "args", None)
        typed = {id(p.annotation) for p in parameters(args)} if args is not None else set()
        typed.add(id(getattr(node, "returns", None)))
        for part in evaluated_outside(node):
            if id(part) in typed:
                self.typed(part)
            else:
                self.node(part)

    # -- where a string may be read as a type: an annotation, a subscript of a name
    # (``List["T"]``), the type arguments of ``TypeVar``/``NewType``, ``cast``'s first
    def typed(self, node: ast.AST | None) -> None:
        if node is not None:
            self.typing += 1
            self.node(node)
            self.typing -= 1

    def AnnAssign(self, node: ast.AnnAssign) -> None:
        self.model.assignments.append(node)
        self.node(node.target)
        self.typed(node.annotation)
        if node.value is not None:
            self.node(node.value)

    def Subscript(self, node: ast.Subscript) -> None:
        self.node(node.value)
        (self.typed if isinstance(node.value, ast.Name) else self.node)(node.slice)

    def Call(self, node: ast.Call) -> None:
        self.node(node.func)
        called = called_name(node.func)
        maker, cast = called in ("TypeVar", "NewType"), called == "cast"  # a name, then types; a type, a value
        for at, arg in enumerate(node.args):
            (self.typed if (maker and at > 0) or (cast and at == 0) else self.node)(arg)
        for keyword in node.keywords:
            (self.typed if maker else self.node)(keyword.value)

    def parameters(self, args: ast.arguments) -> None:
        for arg in parameters(args):
            self.bind(arg.arg, arg)

    def comprehension_scope(self, node, values: list[ast.AST]) -> None:
        first, *others = node.generators
        self.node(first.iter)

        def inside():
            self.node(first.target)
            for test in first.ifs:
                self.node(test)
            for generator in others:
                self.children(generator)
            for value in values:
                self.node(value)

        self.nested("comprehension", inside)

    def ListComp(self, node) -> None:
        self.comprehension_scope(node, [node.elt])

    SetComp = GeneratorExp = ListComp

    def DictComp(self, node: ast.DictComp) -> None:
        self.comprehension_scope(node, [node.key, node.value])
