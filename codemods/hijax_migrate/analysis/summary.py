"""A summary of one module: its classes, their bases and its bindings.

The project index keeps one per module a subclass chain runs through, so
that classes in other files can be classified without keeping their trees.
This builder works on a libcst tree, for the file being migrated (its class
nodes are the rules' handles) and for a module the running Python's ``ast``
cannot parse; ``ast_summary`` builds the same summary from ``ast``.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .accum_uses import accumulator_params
from .chains import star_names
from .returns import own_returns, returns_values

# The summary's data lives apart, free of libcst; re-exported from here.
from .scopes import (  # noqa: F401
    ACCUMULATOR,
    CLASSIC,
    METHOD,
    PRIMITIVE_KINDS,
    ClassInfo,
    Kind,
    ModuleSummary,
    Scope,
    resolve_relative,
    strongest,
)
from .shape import is_static, positional


def dotted_name(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Subscript):  # Generic-style bases: Base[T]
        expr = expr.value
    if isinstance(expr, (cst.Name, cst.Attribute)):
        return get_full_name_for_node(expr)
    return None


def _value_refs(expr: cst.BaseExpression | None) -> list[str]:
    """The names an assigned value may evaluate to (``A if c else B``)."""
    if isinstance(expr, cst.IfExp):
        return _value_refs(expr.body) + _value_refs(expr.orelse)
    if isinstance(expr, cst.BooleanOperation):
        return _value_refs(expr.left) + _value_refs(expr.right)
    name = dotted_name(expr) if expr is not None else None
    return [name] if name else []


def rule_form(func: cst.FunctionDef) -> str:
    """A backward rule's form, for families decided across files."""
    fixed = 1 if is_static(func) else 2  # (self,) res, g; defaulted extras are no accumulators
    params = accumulator_params(func, fixed)
    lone_res = params.star and len(positional(func)) == fixed  # jax 0.8.0's (self, res, *gs)
    classic = not params.named and (not params.star or lone_res) and returns_values(own_returns(func))
    return CLASSIC if classic else ACCUMULATOR


def _text(expr: cst.BaseExpression) -> str | None:
    value = expr.evaluated_value if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)) else None
    return value if isinstance(value, str) else None


def factory_parts(value: cst.BaseExpression | None) -> tuple[list[str | None],
                                                             list[tuple[str, cst.BaseExpression]]] | None:
    """As ``ast_summary.factory_parts``: ``type(name, (bases...), {"key": value...})``."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "type"
            and len(value.args) == 3 and all(arg.keyword is None and not arg.star for arg in value.args)):
        return None
    bases, body = value.args[1].value, value.args[2].value
    if not isinstance(bases, cst.Tuple) or any(isinstance(b, cst.StarredElement) for b in bases.elements) \
            or not isinstance(body, cst.Dict):
        return None
    members = [(_text(e.key), e.value) for e in body.elements if isinstance(e, cst.DictElement)]
    if len(members) != len(body.elements) or any(key is None for key, _ in members):
        return None  # ``**members``, or a key not written out
    return [dotted_name(base.value) for base in bases.elements], members


def dict_member(body: cst.Dict, key: str) -> cst.DictElement | None:
    """The element of a dict display whose key is the string ``key`` as written."""
    return next((e for e in body.elements if isinstance(e, cst.DictElement) and _text(e.key) == key), None)


def factory_member(stmt: cst.SimpleStatementLine, key: str) -> cst.DictElement | None:
    """The member ``key`` of the dict of a statement ``Name = type(name, bases, {...})``."""
    return dict_member(stmt.body[0].value.args[2].value, key)


class _Builder:
    def __init__(self, module: str, is_package: bool):
        self.module, self.is_package = module, is_package
        self.classes: list[ClassInfo] = []
        self.nodes: list[cst.ClassDef] = []  # parallel to classes
        self.factories: list[ClassInfo] = []
        self.defs: dict[tuple[Scope, str], cst.FunctionDef] = {}  # the last def of each name, so far

    def block(self, body, scope: Scope, prefix: str) -> None:
        for stmt in body:
            self.statement(stmt, scope, prefix)

    def statement(self, stmt: cst.CSTNode, scope: Scope, prefix: str) -> None:
        if isinstance(stmt, cst.FunctionDef):
            form = rule_form(stmt) if scope.is_class and stmt.name.value == "vjp_bwd" else None
            scope.bind(stmt.name.value, ("value", [], scope, form or METHOD))
            self.defs[scope, stmt.name.value] = stmt
            self.block(stmt.body.body, Scope(scope), f"{prefix}{stmt.name.value}.<locals>.")
        elif isinstance(stmt, cst.ClassDef):
            bases = [dotted_name(arg.value) for arg in stmt.bases if arg.keyword is None]
            info = ClassInfo(f"{prefix}{stmt.name.value}", bases, scope, Scope(scope, is_class=True), self.module)
            self.classes.append(info)
            self.nodes.append(stmt)
            scope.bind(stmt.name.value, ("class", info))
            self.block(stmt.body.body, info.body, f"{info.qualname}.")
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self.small(small, scope, prefix)
        elif isinstance(stmt, cst.BaseSmallStatement):  # of a one-line body: ``if c: import x``
            self.small(stmt, scope, prefix)
        else:  # if/try/with/for/while/match: nested blocks, same scope
            for child in stmt.children:
                if isinstance(child, cst.BaseSuite):
                    self.block(child.body, scope, prefix)
                elif isinstance(child, cst.CSTNode) and not isinstance(child, cst.BaseExpression):
                    self.statement(child, scope, prefix)

    def small(self, small: cst.BaseSmallStatement, scope: Scope, prefix: str) -> None:
        if isinstance(small, cst.Import):
            for alias in small.names:
                full = get_full_name_for_node(alias.name)
                if alias.asname:
                    scope.bind(alias.asname.name.value, ("import", full))
                else:
                    head = full.split(".")[0]
                    scope.bind(head, ("import", head))
        elif isinstance(small, cst.ImportFrom):
            self.import_from(small, scope)
        elif isinstance(small, cst.Assign) and self.factory(small, scope, prefix):
            pass
        elif isinstance(small, (cst.Assign, cst.AnnAssign)):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                if isinstance(target, cst.Name):
                    scope.bind(target.value, ("value", _value_refs(small.value), scope))

    def factory(self, stmt: cst.Assign, scope: Scope, prefix: str) -> bool:
        """As ``ast_summary``'s: ``Name = type("Name", bases, {...})`` bound as the class it makes."""
        parts = factory_parts(stmt.value)
        target = stmt.targets[0].target if len(stmt.targets) == 1 else None
        if parts is None or not isinstance(target, cst.Name) or scope.lookup("type"):
            return False
        bases, members = parts
        info = ClassInfo(f"{prefix}{target.value}", bases, scope, Scope(scope, is_class=True),
                         self.module, factory=True)
        for key, value in members:
            func = self.defs.get((scope, value.value)) if isinstance(value, cst.Name) else None
            form = (rule_form(func) if key == "vjp_bwd" else METHOD) if func is not None else None
            info.body.bind(key, ("value", _value_refs(value), info.body, form) if form else
                           ("value", _value_refs(value), info.body))
        self.factories.append(info)
        scope.bind(target.value, ("class", info))
        return True

    def import_from(self, stmt: cst.ImportFrom, scope: Scope) -> None:
        source = get_full_name_for_node(stmt.module) if stmt.module else ""
        if stmt.relative:
            source = resolve_relative(self.module, self.is_package, len(stmt.relative), source or None)
        if isinstance(stmt.names, cst.ImportStar):
            for name in star_names(source):
                scope.bind(name, ("import", f"{source}.{name}", "*"))
            return
        for alias in stmt.names:
            name = get_full_name_for_node(alias.name)
            bound = alias.asname.name.value if alias.asname else name
            scope.bind(bound, ("import", f"{source}.{name}" if source else name))


def summarize(tree: cst.Module, module: str = "", is_package: bool = False) -> ModuleSummary:
    """Summarise a parsed module."""
    return summarize_classes(tree, module, is_package)[0]


def summarize_classes(tree: cst.Module, module: str = "",
                      is_package: bool = False) -> tuple[ModuleSummary, list[cst.ClassDef]]:
    """The summary, and the class statement behind each of its ClassInfos.

    The nodes are kept apart from the summary: the project keeps summaries of
    other modules for the whole run, and must not keep their trees alive.
    """
    builder = _Builder(module, is_package)
    scope = Scope(None)
    builder.block(tree.body, scope, "")
    return ModuleSummary(module, scope, builder.classes, builder.factories), builder.nodes
