"""Module summaries from CPython's ``ast``: the one builder of them.

Every ``ModuleSummary`` is built here: the project's of the modules a chain of
bases runs through, triage's, and the migrated file's (``summary`` pairs its
classes with the libcst tree's statements). ``ast`` cannot read syntax newer
than the running Python: ``parse_ast`` takes out type parameters
(``newsyntax``); a text with other newer syntax is written out older from its
libcst tree (``summary.older_code``), and triage leaves it to libcst.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings

from ..sources.parse import python_tree
from .chains import star_names
from .newsyntax import ALIAS, parse_by_pattern, without_type_params
from .returns import returns_values
from .scopes import ACCUMULATOR, CLASSIC, METHOD, ClassInfo, ModuleSummary, Scope, resolve_relative

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NO_TYPE_PARAMS = sys.version_info < (3, 12)  # this ast cannot read them
# Every statement ``newsyntax``'s patterns cut holds one of these (unanchored: twice as fast as
# they are); a pattern a keyword, each searched from its first letters (an alternation of the
# three is tried at every ``d``, ``c`` and ``t``: four times as long, a fourteenth of a parse)
_MAY_CUT = tuple(re.compile(rf"{keyword}[ \t]+\w+[ \t]*[=\[]") for keyword in ("def", "class", "type"))
# Statements that bind no name a summary keeps and hold no statement
_LEAVES = frozenset(
    {ast.Expr, ast.Return, ast.Pass, ast.Raise, ast.Assert, ast.Delete, ast.AugAssign, ast.Break, ast.Continue}
)


def parse_ast(code: str, keep: bool = True) -> ast.Module:
    """Raises SyntaxError (or RecursionError, MemoryError) for what it cannot read.
    ``keep``: the tree is ``python_tree``'s, kept as the last text's (a module's;
    not a piece of one, which would put it out)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like: not ours to report
        # found by their pattern: a failed parse would cost as much again
        if _NO_TYPE_PARAMS and any(pattern.search(code) for pattern in _MAY_CUT):
            tree = parse_by_pattern(code)
            if tree is not None:
                return tree
        try:
            return python_tree(code) if keep else ast.parse(code)
        except SyntaxError:
            older = without_type_params(code) if _NO_TYPE_PARAMS else None  # the pattern missed some
            if older is None:
                raise
            return ast.parse(older)


def dotted_name(expr: ast.expr | None) -> str | None:
    """As ``summary.dotted_name``: one subscript dropped (``Base[T]``), then
    libcst's full name (calls and subscripts stand for what they apply to)."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, (ast.Name, ast.Attribute)):
        return full_name(expr)
    return None


def full_name(expr: ast.expr) -> str | None:
    # Iterative: attribute chains may be long.
    parts = []
    while True:
        if isinstance(expr, ast.Name):
            return ".".join([expr.id, *reversed(parts)])
        if isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        else:
            return ".".join(["None", *reversed(parts)]) if parts else None


def _value_refs(expr: ast.expr | None) -> list[str]:
    """The names an assigned value may evaluate to (``A if c else B``)."""
    if isinstance(expr, ast.IfExp):
        return _value_refs(expr.body) + _value_refs(expr.orelse)
    if isinstance(expr, ast.BoolOp):
        return [ref for value in expr.values for ref in _value_refs(value)]
    if isinstance(expr, ast.Constant) and (expr.value is None or isinstance(expr.value, bool)):
        return [repr(expr.value)]  # names to libcst: True, False, None
    name = dotted_name(expr) if expr is not None else None
    return [name] if name else []


# The statements that may bind a name by a walrus, a ``for``/``with`` target or a target list.
_TARGETING = frozenset({ast.Expr, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.Assign, ast.Delete})


def _target_names(stmt: ast.stmt) -> list[tuple[str, list[str]]]:
    """Names a statement binds other than by a name target: a walrus statement, a ``for``
    or ``with`` target, the names of an unpacking target list (each with what it may
    evaluate to: none known, a value the code makes when it runs)."""
    if type(stmt) not in _TARGETING:  # most statements of a module: asked of each
        return []
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.NamedExpr):
        return [(stmt.value.target.id, _value_refs(stmt.value.value))]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):  # ``with ... as NAME``: what ``__enter__`` gives
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    else:
        targets = [stmt.target] if isinstance(stmt, (ast.For, ast.AsyncFor)) else getattr(stmt, "targets", [])
    whole = isinstance(stmt, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith))
    found = [t for t in targets if whole or isinstance(t, (ast.Tuple, ast.List))]
    names = [n for t in found for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return [(name.id, []) for name in names]


def _bases(node: ast.ClassDef) -> tuple[list[str | None], tuple[tuple[int, ...], ...]]:
    """The dotted names the bases may be, and which of them are arms of one
    expression (``A if c else B``, ``A or B``: one of them is the base).
    ``*(A, B)`` spreads a literal; ``(B := A)`` is ``A``; a call, or any
    other expression, is None (decided when the code runs)."""
    bases: list[str | None] = []
    arms: list[tuple[int, ...]] = []
    for expr in node.bases:
        spread = expr.value if isinstance(expr, ast.Starred) else None
        for item in spread.elts if isinstance(spread, (ast.Tuple, ast.List)) else [spread or expr]:
            refs = _arm_refs(item)
            if len(refs) > 1:
                arms.append(tuple(range(len(bases), len(bases) + len(refs))))
            bases += refs
    return bases, tuple(arms)


def _arm_refs(expr: ast.expr) -> list[str | None]:
    """The dotted names one base expression may evaluate to, an arm each."""
    if isinstance(expr, ast.NamedExpr):
        return _arm_refs(expr.value)
    if isinstance(expr, ast.IfExp):
        return _arm_refs(expr.body) + _arm_refs(expr.orelse)
    if isinstance(expr, ast.BoolOp):
        return [ref for value in expr.values for ref in _arm_refs(value)]
    return [dotted_name(expr)]


def _walrus_targets(node: ast.ClassDef) -> list[ast.NamedExpr]:
    """``(B := A)`` in the bases: ``B`` is bound where the class statement stands."""
    return [sub for base in node.bases for sub in ast.walk(base) if isinstance(sub, ast.NamedExpr)]


def rule_form(func: ast.FunctionDef) -> str:
    """A backward rule's form, for families decided across files (the rewrites
    read it through ``summary.rule_form``): classic when no required parameter
    follows ``(self,) res, g``, there is no ``*args``, and a return hands back values."""
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)
    positional = [*func.args.posonlyargs, *func.args.args]
    required = len(positional) - len(func.args.defaults)
    named = positional[(2 if static else 3) : required]
    lone_res = func.args.vararg is not None and len(positional) == (1 if static else 2)  # 0.8.0's (self, res, *gs)
    classic = not named and (func.args.vararg is None or lone_res) and returns_values(func)
    return CLASSIC if classic else ACCUMULATOR


def member_index(members: ast.Dict, key: str) -> int | None:
    """The position of the first entry of a dict display whose key is the string ``key``
    written out (None: none is)."""
    return next((i for i, k in enumerate(members.keys) if isinstance(k, ast.Constant) and k.value == key), None)


def factory_parts(value: ast.expr | None) -> tuple[list[str | None], list[tuple[str, ast.expr]]] | None:
    """The bases and members of ``type(name, (bases...), {"key": value...})``, each
    written out (None: not such a call, or one whose class cannot be read)."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "type"
        and len(value.args) == 3
        and not value.keywords
        and not any(isinstance(arg, ast.Starred) for arg in value.args)
    ):
        return None
    bases, body = value.args[1], value.args[2]
    if (
        not isinstance(bases, ast.Tuple)
        or any(isinstance(base, ast.Starred) for base in bases.elts)
        or not isinstance(body, ast.Dict)
    ):
        return None
    if not all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in body.keys):
        return None  # ``**members``, or a key not written out
    return [dotted_name(base) for base in bases.elts], [(key.value, v) for key, v in zip(body.keys, body.values)]


class _Builder:
    def __init__(self, module: str, is_package: bool):
        self.module, self.is_package = module, is_package
        self.classes: list[ClassInfo] = []
        self.nodes: list[ast.ClassDef] = []  # parallel to classes
        self.factories: list[ClassInfo] = []
        self.defs: dict[tuple[Scope, str], ast.FunctionDef] = {}  # the last def of each name, so far

    def block(self, body: list[ast.stmt], scope: Scope, prefix: str) -> None:
        for stmt in body:
            self.statement(stmt, scope, prefix)

    def statement(self, stmt: ast.stmt, scope: Scope, prefix: str) -> None:
        # Names an unpacking, a ``for`` or ``:=`` binds (``[vjp_bwd] = [f]`` in a class body;
        # ``Base, _ = VJPHiPrimitive, None`` in a module: a value the code makes when it runs)
        for name, refs in _target_names(stmt):
            scope.bind(name, ("value", refs, scope))
        if type(stmt) in _LEAVES:
            return  # binds nothing, holds no statement: most of a module's
        if isinstance(stmt, _FUNCTIONS):
            form = rule_form(stmt) if scope.is_class and stmt.name == "vjp_bwd" else None
            scope.bind(stmt.name, ("value", [], scope, form or METHOD))
            self.defs[scope, stmt.name] = stmt
            self.block(stmt.body, Scope(scope), f"{prefix}{stmt.name}.<locals>.")
        elif isinstance(stmt, ast.ClassDef):
            bases, arms = _bases(stmt)
            info = ClassInfo(f"{prefix}{stmt.name}", bases, scope, Scope(scope, is_class=True), self.module, arms=arms)
            for walrus in _walrus_targets(stmt):
                scope.bind(walrus.target.id, ("value", _value_refs(walrus.value), scope))
            self.classes.append(info)
            self.nodes.append(stmt)
            scope.bind(stmt.name, ("class", info))
            self.block(stmt.body, info.body, f"{info.qualname}.")
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    scope.bind(alias.asname, ("import", alias.name))
                else:
                    head = alias.name.split(".")[0]
                    scope.bind(head, ("import", head))
        elif isinstance(stmt, ast.ImportFrom):
            self.import_from(stmt, scope)
        elif isinstance(stmt, ast.Assign) and self.factory(stmt, scope, prefix):
            pass
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id != ALIAS:
                    scope.bind(target.id, ("value", _value_refs(stmt.value), scope))
        else:  # if/try/with/for/while/match: nested blocks, same scope, in source order
            for name in ("body", "handlers", "cases", "orelse", "finalbody"):
                for child in getattr(stmt, name, ()):
                    if isinstance(child, (ast.excepthandler, ast.match_case)):
                        self.block(child.body, scope, prefix)
                    elif isinstance(child, ast.stmt):
                        self.statement(child, scope, prefix)

    def factory(self, stmt: ast.Assign, scope: Scope, prefix: str) -> bool:
        """``Name = type("Name", bases, {...})``: bound as the class it makes."""
        parts = factory_parts(stmt.value)
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        if parts is None or not isinstance(target, ast.Name) or scope.lookup("type"):
            return False
        bases, members = parts
        info = ClassInfo(f"{prefix}{target.id}", bases, scope, Scope(scope, is_class=True), self.module, factory=True)
        for key, value in members:
            func = self.defs.get((scope, value.id)) if isinstance(value, ast.Name) else None
            form = (rule_form(func) if key == "vjp_bwd" else METHOD) if func is not None else None
            info.body.bind(
                key,
                ("value", _value_refs(value), info.body, form) if form else ("value", _value_refs(value), info.body),
            )
        self.factories.append(info)
        scope.bind(target.id, ("class", info))
        return True

    def import_from(self, stmt: ast.ImportFrom, scope: Scope) -> None:
        source = stmt.module or ""
        if stmt.level:
            source = resolve_relative(self.module, self.is_package, stmt.level, source or None)
        if any(alias.name == "*" for alias in stmt.names):
            for name in star_names(source):
                scope.bind(name, ("import", f"{source}.{name}", "*"))
            return
        for alias in stmt.names:
            bound = alias.asname or alias.name
            scope.bind(bound, ("import", f"{source}.{alias.name}" if source else alias.name))


def class_statements(tree: ast.Module) -> list[ast.ClassDef]:
    """The class statements of ``tree`` in the order of a summary's classes: source order, preorder."""
    found, stack = [], list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.ClassDef):
            found.append(stmt)
        children = [
            child for name in ("body", "handlers", "cases", "orelse", "finalbody") for child in getattr(stmt, name, ())
        ]
        stack.extend(
            reversed(
                [
                    sub
                    for child in children
                    for sub in (child.body if isinstance(child, (ast.excepthandler, ast.match_case)) else [child])
                    if isinstance(sub, ast.stmt)
                ]
            )
        )
    return found


def binding_line(code: str, name: str) -> int:
    """The line of the first statement of ``code`` (outermost first) binding
    ``name`` by assignment or import; 0: none, or unreadable."""
    try:
        tree = parse_ast(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                return node.lineno
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and any(
            (alias.asname or alias.name.partition(".")[0]) == name for alias in node.names
        ):
            return node.lineno
    return 0


def summarize_ast(
    tree: ast.Module, module: str = "", is_package: bool = False
) -> tuple[ModuleSummary, list[ast.ClassDef]]:
    """The summary, and the class statement behind each of its ClassInfos."""
    builder = _Builder(module, is_package)
    scope = Scope(None)
    builder.block(tree.body, scope, "")
    return ModuleSummary(module, scope, builder.classes, builder.factories), builder.nodes
