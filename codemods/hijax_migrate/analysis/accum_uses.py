"""How a backward rule uses the accumulators it takes, by Python's name resolution, read
from ``ast`` (``function_names``: the names the rule's own block binds, and every read
reaching them).

What jax passes decides what an accumulator is: one positional argument per
input after the fixed ones (``res, g``; ``res, sres, g``), or an element of
``*arg_accums``. A parameter with a default, a keyword-only parameter or
``**kwargs`` never is one. Each accumulator is then

- written: ``acc.accum(...)`` or a store through ``acc.ref[...]``, as a statement;
- only inspected: ``isinstance``, ``type``, ``len``, ``assert``, comparisons,
  truth tests (a ``NullAccum`` check writes nothing);
- handed to a call, as an argument or an element of a tuple argument
  (``_write_all((a, b), cts)``): recorded, for ``paths`` to read the helper;
- or handed on otherwise: stored, returned, rebound, used in a nested
  function. That use is unknown, and the rule is left alone.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .function_names import FunctionNames

_INSPECTORS = frozenset({"isinstance", "type", "len", "id"})
_TESTS = (ast.If, ast.While, ast.Assert, ast.IfExp)
Arg = ast.expr | ast.keyword  # an argument of a call: an expression, a ``*`` one (``Starred``) or a keyword


@dataclass(frozen=True)
class Handed:
    """An accumulator passed to a call: ``f(acc)``, ``f((a, acc))`` (``element`` 1), or with all
    the others, ``f(*accs)`` or ``f(accs)`` (``whole``)."""

    call: ast.Call
    arg: Arg
    element: int | None = None
    whole: bool = False


@dataclass
class Accumulator:
    target: str  # code naming it: "x_acc", "arg_accums[0]"
    writes: list[ast.stmt] = field(default_factory=list)
    handed: list[Handed] = field(default_factory=list)


class Unknown(Exception):
    """An accumulator used in a way whose effect cannot be decided (``node``: ``ast``'s, to name)."""

    def __init__(self, node: ast.AST, reason: str):
        super().__init__(reason)
        self.node = node


@dataclass
class Params:
    named: list[str]  # positional accumulator parameters
    star: str | None  # the *arg_accums parameter
    first_extra: int | None  # index (from self) of the first defaulted positional parameter


def accumulator_params(func: ast.FunctionDef | ast.AsyncFunctionDef, fixed: int) -> Params:
    params = defaulted(func)
    positional = params[1 + fixed :]
    extra = next((i for i, (_, default) in enumerate(positional) if default), None)
    star = func.args.vararg
    return Params(
        [name for name, default in positional if not default],
        star.arg if star is not None else None,
        None if extra is None else 1 + fixed + extra,
    )


def defaulted(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, bool]]:
    """Each positional parameter, ``self`` first, and whether it has a default
    (``ast`` holds the defaults of the last ones)."""
    names = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    first = len(names) - len(func.args.defaults)
    return [(name, i >= first) for i, name in enumerate(names)]


def parents_of(func: ast.AST) -> dict[ast.AST, ast.AST]:
    """child -> parent, for every node under ``func``."""
    return {child: node for node in ast.walk(func) for child in ast.iter_child_nodes(node)}


def arg_of(node: ast.expr, parents) -> tuple[ast.Call, Arg] | None:
    """The call ``node`` is an argument of, and the argument (``node``, its ``*`` or keyword)."""
    parent = parents.get(node)
    arg = node
    if isinstance(parent, (ast.Starred, ast.keyword)) and parent.value is node:
        arg, parent = parent, parents.get(parent)
    if isinstance(parent, ast.Call) and any(a is arg for a in (*parent.args, *parent.keywords)):
        return parent, arg
    return None


def is_star(arg: Arg) -> bool:
    """``*x`` or ``**x``."""
    return isinstance(arg, ast.Starred) or (isinstance(arg, ast.keyword) and arg.arg is None)


def value_of(arg: Arg) -> ast.expr:
    return arg.value if isinstance(arg, (ast.Starred, ast.keyword)) else arg


class Uses:
    """Classifies the uses of the accumulators of one function (``ast``'s)."""

    def __init__(self, func: ast.FunctionDef | ast.AsyncFunctionDef, tree_write=None):
        self.func, self.names, self.parents = func, FunctionNames.of(func), parents_of(func)
        self.spread: list[Handed] = []  # ``f(*arg_accums)``: every element handed on at once
        # ``tree_write(uses, node)``: the statement writing ``node`` through ``jax.tree.map`` (tree_writes.py)
        self.tree_write = tree_write
        self.whole_writes: list[ast.Expr] = []  # ``jax.tree.map(f, arg_accums, cts)``: each element written

    def references(self, name: str) -> list[ast.Name]:
        if not self.names.bound_once(name):
            again = [b for b in self.names.bindings.get(name, ()) if not isinstance(b, ast.arg)]
            raise Unknown(again[0] if again else self.func, f"`{name}` is bound again in the rule")
        return self.names.reads.get(name, [])

    def named(self, name: str) -> Accumulator:
        acc = Accumulator(name)
        for node in self.references(name):
            self._classify(node, acc)
        return acc

    def star(self, name: str, count: int | None) -> list[Accumulator] | int:
        """The elements of ``*name``; without a count, the length it is unpacked to."""
        elements: dict[int, list[ast.AST]] = {}
        for node in self.references(name):
            parent = self.parents[node]
            if isinstance(parent, ast.Subscript) and parent.value is node and _index(parent) is not None:
                elements.setdefault(_index(parent), []).append(parent)
            elif isinstance(parent, ast.Assign) and parent.value is node and _unpack_names(parent):
                names = _unpack_names(parent)
                if not self.own(node) or (count is not None and len(names) != count):
                    raise Unknown(parent, f"`{name}` is unpacked to {len(names)} names")
                count = len(names)
                for i, alias in enumerate(names):
                    elements.setdefault(i, []).extend(self.references(alias))
            else:
                self._whole(node, name)
        if count is None:
            return -1 if not elements else max(elements) + 1
        if any(i >= count for i in elements):
            raise Unknown(self.func, f"`{name}` is indexed past its {count} inputs")
        accs = [
            Accumulator(f"{name}[{i}]", writes=list(self.whole_writes), handed=list(self.spread)) for i in range(count)
        ]
        for i, nodes in elements.items():
            for node in nodes:
                self._classify(node, accs[i])
        return accs

    def _whole(self, node: ast.Name, name: str) -> None:
        """A use of ``*name`` whole: written through a tree map, handed to a call, or inspected."""
        found = arg_of(node, self.parents)
        if self._through_tree(node) is not None and self.own(node):
            self.whole_writes.append(self._through_tree(node))
        elif found is not None and not _double_star(found[1]) and not self.inspected(node) and self.own(node):
            self.spread.append(Handed(found[0], found[1], whole=True))
        elif not self.inspected(node):
            raise Unknown(node, f"`{name}` is {self._how(node)}")

    def _through_tree(self, node: ast.AST) -> ast.stmt | None:
        return self.tree_write(self, node) if self.tree_write is not None else None

    def _classify(self, node: ast.AST, acc: Accumulator) -> None:
        write = self._write(node) or self._through_tree(node)
        if write is not None and self.own(node):
            acc.writes.append(write)
        elif self._handed(node) is not None and self.own(node):
            acc.handed.append(self._handed(node))
        elif not self.inspected(node):
            raise Unknown(node, f"`{acc.target}` is {self._how(node)}")

    def own(self, node: ast.AST) -> bool:
        """Does the read (``node``, or the name ``node`` subscripts) stand in the rule's own block?"""
        name = node.value if isinstance(node, ast.Subscript) else node
        return id(name) in self.names.own

    def _write(self, node: ast.AST) -> ast.stmt | None:
        attr = self.parents[node]
        if not (isinstance(attr, ast.Attribute) and attr.value is node):
            return None
        outer = self.parents.get(attr)
        if attr.attr == "accum" and isinstance(outer, ast.Call) and outer.func is attr:
            statement = self.parents.get(outer)
            return statement if isinstance(statement, ast.Expr) else None
        if attr.attr == "ref" and isinstance(outer, ast.Subscript) and outer.value is attr:
            store = self.parents.get(outer)
            stored = (isinstance(store, ast.Assign) and any(t is outer for t in store.targets)) or (
                isinstance(store, ast.AugAssign) and store.target is outer
            )
            return store if stored else None
        return None

    def _handed(self, node: ast.AST) -> Handed | None:
        """``f(acc)``, ``f(key=acc)``, ``f((a, acc))``; not ``isinstance(acc, T)``, an inspection."""
        parent, element = self.parents[node], None
        if isinstance(parent, (ast.Tuple, ast.List)) and isinstance(parent.ctx, ast.Load):
            if any(isinstance(e, ast.Starred) for e in parent.elts):
                return None
            element = next(i for i, e in enumerate(parent.elts) if e is node)
            node = parent
        found = arg_of(node, self.parents)
        if found is None or is_star(found[1]) or self.inspected(node):
            return None
        return Handed(found[0], found[1], element)

    def inspected(self, node: ast.AST) -> bool:
        found = arg_of(node, self.parents)
        if found is not None:
            func = found[0].func
            return isinstance(func, ast.Name) and func.id in _INSPECTORS
        parent = self.parents.get(node)
        if isinstance(parent, ast.Compare):
            return True
        if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr == "aval":
            return True
        while isinstance(parent, ast.BoolOp):  # `a and b` hands on a value, unless tested
            node, parent = parent, self.parents.get(parent)
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return True
        return isinstance(parent, _TESTS) and parent.test is node

    def _how(self, node: ast.AST) -> str:
        parent = self.parents[node]
        if arg_of(node, self.parents) is not None:
            return "handed to a call"
        if isinstance(parent, ast.Return):
            return "returned"
        if self._write(node) is not None:
            return "written inside a nested function or expression"
        if isinstance(parent, ast.Attribute):
            return f"used through `.{parent.attr}`"
        return "stored or handed on"


def _double_star(arg: Arg) -> bool:
    return isinstance(arg, ast.keyword) and arg.arg is None


def _index(subscript: ast.Subscript) -> int | None:
    value = subscript.slice
    return value.value if isinstance(value, ast.Constant) and type(value.value) is int else None


def _unpack_names(assign: ast.Assign) -> list[str] | None:
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], (ast.Tuple, ast.List)):
        return None
    elements = assign.targets[0].elts
    return [e.id for e in elements] if all(isinstance(e, ast.Name) for e in elements) else None
