"""Every binding a class body makes of a name jax's hijax API reads, from ``ast``.

The forms come from the language reference (the execution model's "binding
of names"), not from examples: each statement kind of a class body that
binds a name (``def``, assignments of every shape, ``for``/``with``/
``except``/``match`` targets, imports, a nested class, ``type``, ``del``,
``global``), the same inside a block of the body, and the namespace written
through ``locals()``/``vars()`` or ``exec``. ``namespace_after`` finds the
bindings made after the class statement and by the ways a class is made.

A binding whose name cannot be read (``locals()[key]``, ``exec(code)``) has
the name None: it may bind any of them. Which forms a rule follows is said
by the rules (``Rule.binds``); this module only lists what Python binds.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .function_kinds import not_run, yields
from .returns import own_returns

# The names jax reads on a primitive class (docs/decisions.md, "Every way a rule is bound").
API_NAMES = frozenset(
    {
        "vjp_bwd",
        "vjp_bwd_retval",
        "vjp_bwd_retval_logs",
        "vjp_fwd",
        "dce",
        "batch",
        "batch_dim_rule",
        "remat",
        "jvp",
        "lin",
        "linearized",
        "in_avals",
        "out_aval",
        "params",
    }
)

# A. statements of a class body
DEF = "def"
GENERATOR_DEF = "generator def"  # of ``vjp_bwd``: its call runs none of its body (``function_kinds``)
ASYNC_DEF = "async def"  # of any rule: a coroutine is nothing jax reads; no rule decides either
ASSIGN = "assignment"
ANNOTATED = "annotated assignment"
AUGMENTED = "augmented assignment"
UNPACKING = "unpacking assignment"
CHAINED = "chained assignment"
WALRUS = "assignment expression"
FOR = "for target"
WITH = "with target"
EXCEPT = "except target"
IMPORT = "import"
MATCH = "match capture"
NESTED_CLASS = "nested class"
TYPE_ALIAS = "type alias"
DELETE = "del"
GLOBAL = "global declaration"
NONLOCAL = "nonlocal declaration"
SLOTS = "__slots__ entry"
NAMESPACE = "locals()/vars() store"
EXEC = "exec"
IN_BLOCK = " in a block"  # any of the above inside if/try/for/while/with/match: ``DEF + IN_BLOCK``
# A form a rule decides on a class that is no primitive, which a primitive of the tree inherits
# from (a mixin): ``DEF + ON_BASE`` in ``Rule.binds``; any form no rule declares so is HJX016's error.
ON_BASE = " on a base a primitive inherits"
# B. after the class statement
ATTRIBUTE = "attribute assignment after the class"
SETATTR = "setattr"
DELATTR = "del or delattr after the class"
DICT_WRITE = "__dict__ write"  # ``obj.__dict__[N] = f``, ``vars(obj).update(N=f)``: the instance's own names
INSTANCE = "instance attribute"
# C. how a class is made
FACTORY = "type() member"
NEW_CLASS = "types.new_class"
METACLASS = "metaclass"
DECORATOR = "class decorator"
INIT_SUBCLASS = "__init_subclass__ of a base"
SET_NAME = "__set_name__ of a descriptor"
# D. how an instance's attributes are looked up: the data model calls ``type(obj).__getattribute__``
# for every one (``__getattr__`` only for a name the class and its bases lack: jax's base has the rules)
LOOKUP = "__getattribute__"
GETATTRIBUTE = "__getattribute__ of the class"

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (*_FUNCTIONS, ast.ClassDef, ast.Lambda)
_BLOCKS = {ast.If: "if", ast.While: "while", ast.For: "for", ast.AsyncFor: "for", ast.With: "with"}
_BLOCKS |= {ast.AsyncWith: "with", ast.Try: "try", ast.Match: "match"}
if hasattr(ast, "TryStar"):
    _BLOCKS[ast.TryStar] = "try"


GIVEN = "(a class a function is given)"  # ``Binding.on`` of ``setattr(param, ...)`` in a function
# ``Binding.on`` where the object is one the code computes (``globals()["C"].vjp_bwd = f``), or
# not written out at all (``setattr(*args)``, a setter handed on, ``exec(code)``): any class
COMPUTED = "(an object the code computes)"


@dataclass(frozen=True)
class Binding:
    name: str | None  # None: any name may be bound (a key or code not written out)
    form: str
    line: int
    block: str | None = None  # the block of the body it stands in (``if``, ``try``...)
    value: ast.expr | None = None  # what is bound, where one expression says it
    on: str | None = None  # after the class: the dotted name bound on, where no class of the module is it
    # (``GIVEN``: a function's parameter, any class the function is given)
    via: str | None = None  # after the class: how (``setattr``, an attribute assignment...), where ``form`` says where
    namespace: ast.expr | None = None  # a class made by ``type()``: the namespace it is given

    @property
    def key(self) -> str:
        """The form as rules declare it: ``def``, ``def in a block``..."""
        return self.form + IN_BLOCK if self.block else self.form

    def described(self) -> str:
        where = f" inside `{self.block}`" if self.block else ""
        return f"{_ARTICLE.get(self.form, 'a ')}{self.form}{where}"


_ARTICLE = {IMPORT: "an ", EXEC: "", DELETE: "", ATTRIBUTE: "an ", INSTANCE: "an ", SETATTR: "", ASSIGN: "an "}
_ARTICLE |= {DELATTR: "", ANNOTATED: "an ", AUGMENTED: "an ", UNPACKING: "an ", EXCEPT: "an "}
_ARTICLE |= {
    WALRUS: "an ",
    NEW_CLASS: "",
    INIT_SUBCLASS: "the ",
    SET_NAME: "the ",
    ASYNC_DEF: "an ",
    GETATTRIBUTE: "the ",
}


def body_bindings(cls: ast.ClassDef) -> list[Binding]:
    """The bindings of API names (and of names not written out) the class body makes; a
    ``__getattribute__`` of the class reads every name jax asks of an instance: any of them,
    but where it answers as the default lookup does (``_delegates``)."""
    defaults = {s.lineno for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == LOOKUP and _delegates(s)}
    found = (
        replace(b, name=None, form=GETATTRIBUTE) if b.name == LOOKUP else b
        for b in _statements(cls.body, None)
        if not (b.name == LOOKUP and b.line in defaults)
    )
    return [b for b in found if b.name is None or b.name in API_NAMES]


def _delegates(func: ast.FunctionDef) -> bool:
    """A ``__getattribute__`` that answers every name as the default lookup does: each return
    gives ``super().__getattribute__(name)`` (or ``object.__getattribute__(self, name)``), or a
    name the body binds only to that, the last statement is such a return, and ``name`` is never
    rebound (a tracing wrapper: what it does besides cannot change the answer)."""
    params = [a.arg for a in func.args.args]
    if func.decorator_list or len(params) != 2 or not func.body or not isinstance(func.body[-1], ast.Return):
        return False
    stores = [n for n in ast.walk(func) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
    if any(n.id == params[1] for n in stores) or yields(func):
        return False
    looked_up = {
        t.id
        for s in ast.walk(func)
        if isinstance(s, ast.Assign) and _default_lookup(s.value, params)
        for t in s.targets
        if isinstance(t, ast.Name)
    }
    only = {name for name in looked_up if sum(n.id == name for n in stores) == 1}
    return all(
        _default_lookup(r.value, params) or isinstance(r.value, ast.Name) and r.value.id in only
        for r in own_returns(func)
    )


def _default_lookup(value: ast.expr | None, params: list[str]) -> bool:
    """``super().__getattribute__(name)`` or ``object.__getattribute__(self, name)``."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == LOOKUP):
        return False
    owner, args = value.func.value, [a.id if isinstance(a, ast.Name) else None for a in value.args]
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
        return args == [params[1]] and not owner.args
    return isinstance(owner, ast.Name) and owner.id == "object" and args == params


def _statements(body: list[ast.stmt], block: str | None) -> Iterator[Binding]:
    for stmt in body:
        yield from _statement(stmt, block)
        yield from _in_expressions(stmt, block)
        inner = _BLOCKS.get(type(stmt))
        if inner is not None:
            for part in ("body", "orelse", "finalbody"):
                yield from _statements(getattr(stmt, part, []), inner)
            for child in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
                yield from _statements(child.body, inner)


def _statement(stmt: ast.stmt, block: str | None) -> Iterator[Binding]:
    line = stmt.lineno
    if isinstance(stmt, _FUNCTIONS):
        yield Binding(stmt.name, _def_form(stmt), line, block)
    elif isinstance(stmt, ast.ClassDef):
        yield Binding(stmt.name, NESTED_CLASS, line, block)
    elif isinstance(stmt, ast.Assign):
        yield from _assign(stmt, block)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        if stmt.value is not None or isinstance(stmt, ast.AugAssign):  # ``N: T`` alone binds nothing
            form = ANNOTATED if isinstance(stmt, ast.AnnAssign) else AUGMENTED
            yield from _target(stmt.target, form, line, block, stmt.value)
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        yield from _target(stmt.target, FOR, line, block, None)
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            if item.optional_vars is not None:
                yield from _target(item.optional_vars, WITH, line, block, None)
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            name = alias.asname or alias.name.partition(".")[0]
            yield Binding(None if name == "*" else name, IMPORT, line, block)
    elif isinstance(stmt, (ast.Global, ast.Nonlocal)):
        form = GLOBAL if isinstance(stmt, ast.Global) else NONLOCAL
        yield from (Binding(name, form, line, block) for name in stmt.names)
    elif isinstance(stmt, ast.Delete):
        for target in stmt.targets:
            yield from _target(target, DELETE, line, block, None)
    elif type(stmt).__name__ == "TypeAlias":  # ``type N = ...`` (3.12)
        yield from _target(stmt.name, TYPE_ALIAS, line, block, None)
    else:
        yield from _handlers(stmt, block)


def _def_form(func: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """A rule's ``def``, or one whose call returns what jax cannot read of it (``function_kinds``):
    a coroutine, for any rule; a generator, for ``vjp_bwd`` (another rule's may be unpacked)."""
    if isinstance(func, ast.AsyncFunctionDef) and func.name in API_NAMES:
        return ASYNC_DEF
    return GENERATOR_DEF if func.name == "vjp_bwd" and not_run(func) is not None else DEF


def _handlers(stmt: ast.stmt, block: str | None) -> Iterator[Binding]:
    """``except E as N`` (unbound again after the handler) and ``match`` captures."""
    for handler in getattr(stmt, "handlers", ()):
        if handler.name:
            yield Binding(handler.name, EXCEPT, handler.lineno, "try")
    for case in getattr(stmt, "cases", ()):
        for node in ast.walk(case.pattern):
            name = getattr(node, "name", None) or getattr(node, "rest", None)
            if isinstance(name, str):
                yield Binding(name, MATCH, node.lineno, "match")


def _assign(stmt: ast.Assign, block: str | None) -> Iterator[Binding]:
    single = len(stmt.targets) == 1
    for target in stmt.targets:
        form = ASSIGN if single and isinstance(target, ast.Name) else CHAINED
        yield from _target(target, form, stmt.lineno, block, stmt.value)
        if isinstance(target, ast.Name) and target.id == "__slots__":
            yield from _slots(stmt.value, block)


def _slots(value: ast.expr, block: str | None) -> Iterator[Binding]:
    """Each name of ``__slots__`` becomes a descriptor of the class: a binding."""
    items = value.elts if isinstance(value, (ast.Tuple, ast.List, ast.Set)) else [value]
    for item in items:
        yield Binding(_constant(item), SLOTS, item.lineno, block)


def _target(target: ast.expr, form: str, line: int, block: str | None, value) -> Iterator[Binding]:
    if isinstance(target, ast.Name):
        yield Binding(target.id, form, line, block, value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        form = UNPACKING if form in (ASSIGN, CHAINED) else form
        for element, part in zip(target.elts, _parts(value, len(target.elts))):
            yield from _target(element, form, line, block, part)
    elif isinstance(target, ast.Starred):
        yield from _target(target.value, form, line, block, value)
    elif isinstance(target, ast.Subscript) and own_namespace(target.value):
        yield Binding(_constant(target.slice), NAMESPACE, line, block, value)


def _parts(value: ast.expr | None, count: int) -> list[ast.expr | None]:
    """What each of ``count`` unpacked targets gets: the elements of a display as long, else the whole."""
    elements = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
    if elements is None or len(elements) != count or any(isinstance(e, ast.Starred) for e in elements):
        return [value] * count
    return list(elements)


def _in_expressions(stmt: ast.stmt, block: str | None) -> Iterator[Binding]:
    """What the statement's own expressions bind: ``(N := v)``, ``exec(...)``,
    ``locals().update(...)`` (nested functions and blocks' bodies aside)."""
    for node in _own_nodes(stmt):
        if isinstance(node, ast.NamedExpr):
            yield Binding(node.target.id, WALRUS, node.lineno, block, node.value)
        elif isinstance(node, ast.Call) and _is_name(node.func, "exec"):
            yield from _exec(node, block)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and own_namespace(node.func.value):
            if node.func.attr in ("update", "setdefault", "__setitem__"):
                yield Binding(_constant(node.args[0]) if node.args else None, NAMESPACE, node.lineno, block)


def _exec(call: ast.Call, block: str | None) -> Iterator[Binding]:
    """The bindings of the code ``exec`` runs in the body (any, where it is not written out)."""
    code = _constant(call.args[0]) if call.args else None
    try:
        parsed = ast.parse(code) if code is not None else None
    except (SyntaxError, ValueError):
        parsed = None
    if parsed is None:
        yield Binding(None, EXEC, call.lineno, block)
        return
    for found in _statements(parsed.body, None):
        yield Binding(found.name, EXEC, call.lineno, block)


def _own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of ``stmt`` outside nested scopes and outside the bodies of its blocks."""
    if isinstance(stmt, _SCOPES):
        roots = [*stmt.decorator_list]
    elif type(stmt) in _BLOCKS:
        roots = [getattr(stmt, attr) for attr in ("test", "iter", "subject") if hasattr(stmt, attr)]
        roots += [item.context_expr for item in getattr(stmt, "items", ())]
    else:
        roots = [stmt]
    stack = list(roots)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES))


def own_namespace(node: ast.expr) -> bool:
    """``locals()`` or ``vars()``: the class body's namespace itself."""
    called = isinstance(node, ast.Call) and not node.args
    return called and (_is_name(node.func, "locals") or _is_name(node.func, "vars"))


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _constant(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
