"""How a backward rule uses the accumulators it takes, by scope, not by spelling.

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

from dataclasses import dataclass, field

import libcst as cst

from .source_order import in_source_order

_INSPECTORS = frozenset({"isinstance", "type", "len", "id"})
_TESTS = (cst.If, cst.While, cst.Assert, cst.IfExp)


@dataclass(frozen=True)
class Handed:
    """An accumulator passed to a call: ``f(acc)``, ``f((a, acc))`` (``element`` 1), or with all
    the others, ``f(*accs)`` or ``f(accs)`` (``whole``)."""

    call: cst.Call
    arg: cst.Arg
    element: int | None = None
    whole: bool = False


@dataclass
class Accumulator:
    target: str  # code naming it: "x_acc", "arg_accums[0]"
    writes: list[cst.BaseSmallStatement] = field(default_factory=list)
    handed: list[Handed] = field(default_factory=list)


class Unknown(Exception):
    """An accumulator used in a way whose effect cannot be decided."""

    def __init__(self, node: cst.CSTNode, reason: str):
        super().__init__(reason)
        self.node = node


@dataclass
class Params:
    named: list[str]  # positional accumulator parameters
    star: str | None  # the *arg_accums parameter
    first_extra: int | None  # index (from self) of the first defaulted positional parameter


def accumulator_params(func: cst.FunctionDef, fixed: int) -> Params:
    positional = [*func.params.posonly_params, *func.params.params][1 + fixed :]
    named = [p.name.value for p in positional if p.default is None]
    extra = next((i for i, p in enumerate(positional) if p.default is not None), None)
    star = func.params.star_arg
    return Params(
        named, star.name.value if isinstance(star, cst.Param) else None, None if extra is None else 1 + fixed + extra
    )


class Uses:
    """Classifies the uses of the accumulators of one function."""

    def __init__(self, func: cst.FunctionDef, scopes, parents, tree_write=None):
        self.func, self.scopes, self.parents = func, scopes, parents
        self.scope = scopes[func.body]
        self.spread: list[Handed] = []  # ``f(*arg_accums)``: every element handed on at once
        # ``tree_write(uses, node)``: the statement writing ``node`` through ``jax.tree.map`` (tree_writes.py)
        self.tree_write = tree_write
        self.whole_writes: list[cst.Expr] = []  # ``jax.tree.map(f, arg_accums, cts)``: each element written

    def references(self, name: str) -> list[cst.Name]:
        assignments = self.scope.assignments[name]
        if len(assignments) != 1:
            # the first in the source: libcst's set of assignments has no order of its own
            again = in_source_order(self.func, [a.node for a in assignments if not isinstance(a.node, cst.Param)])
            raise Unknown(again[0] if again else self.func, f"`{name}` is bound again in the rule")
        return in_source_order(self.func, [ref.node for ref in next(iter(assignments)).references])

    def named(self, name: str) -> Accumulator:
        acc = Accumulator(name)
        for node in self.references(name):
            self._classify(node, acc)
        return acc

    def star(self, name: str, count: int | None) -> list[Accumulator] | int:
        """The elements of ``*name``; without a count, the length it is unpacked to."""
        elements: dict[int, list[cst.CSTNode]] = {}
        for node in self.references(name):
            parent = self.parents[node]
            if isinstance(parent, cst.Subscript) and _index(parent) is not None:
                elements.setdefault(_index(parent), []).append(parent)
            elif isinstance(parent, cst.Assign) and parent.value is node and _unpack_names(parent):
                names = _unpack_names(parent)
                if self.scopes[node] is not self.scope or (count is not None and len(names) != count):
                    raise Unknown(parent, f"`{name}` is unpacked to {len(names)} names")
                count = len(names)
                for i, alias in enumerate(names):
                    elements.setdefault(i, []).extend(self.references(alias))
            elif self._through_tree(node) is not None and self._own(node):
                self.whole_writes.append(self._through_tree(node))
            elif isinstance(parent, cst.Arg) and parent.star != "**" and not self.inspected(node) and self._own(node):
                self.spread.append(Handed(self.parents[parent], parent, whole=True))
            elif not self.inspected(node):
                raise Unknown(node, f"`{name}` is {self._how(node)}")
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

    def _through_tree(self, node: cst.CSTNode) -> cst.Expr | None:
        return self.tree_write(self, node) if self.tree_write is not None else None

    def _classify(self, node: cst.CSTNode, acc: Accumulator) -> None:
        write = self._write(node) or self._through_tree(node)
        if write is not None and self._own(node):
            acc.writes.append(write)
        elif self._handed(node) is not None and self._own(node):
            acc.handed.append(self._handed(node))
        elif not self.inspected(node):
            raise Unknown(node, f"`{acc.target}` is {self._how(node)}")

    def _own(self, node: cst.CSTNode) -> bool:
        name = node if isinstance(node, cst.Name) else node.value
        return self.scopes.get(name) is self.scope

    def _write(self, node: cst.CSTNode) -> cst.BaseSmallStatement | None:
        attr = self.parents[node]
        if not (isinstance(attr, cst.Attribute) and attr.value is node):
            return None
        outer = self.parents[attr]
        if attr.attr.value == "accum" and isinstance(outer, cst.Call) and outer.func is attr:
            statement = self.parents[outer]
            return statement if isinstance(statement, cst.Expr) else None
        if attr.attr.value == "ref" and isinstance(outer, cst.Subscript):
            store = self.parents[outer]
            store = self.parents[store] if isinstance(store, cst.AssignTarget) else store
            if isinstance(store, (cst.Assign, cst.AugAssign)) and store.value is not outer:
                return store
        return None

    def _handed(self, node: cst.CSTNode) -> Handed | None:
        """``f(acc)``, ``f(key=acc)``, ``f((a, acc))``; not ``isinstance(acc, T)``, an inspection."""
        parent, element = self.parents[node], None
        if isinstance(parent, cst.Element) and parent.value is node:
            literal = self.parents[parent]
            if not isinstance(literal, (cst.Tuple, cst.List)) or any(
                isinstance(e, cst.StarredElement) for e in literal.elements
            ):
                return None
            element = next(i for i, e in enumerate(literal.elements) if e is parent)
            node, parent = literal, self.parents[literal]
        if not isinstance(parent, cst.Arg) or parent.star or parent.value is not node or self.inspected(node):
            return None
        return Handed(self.parents[parent], parent, element)

    def inspected(self, node: cst.CSTNode) -> bool:
        parent = self.parents[node]
        if isinstance(parent, cst.Arg):
            call = self.parents[parent]
            return isinstance(call.func, cst.Name) and call.func.value in _INSPECTORS
        if isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
            return True
        if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "aval":
            return True
        while isinstance(parent, cst.BooleanOperation):  # `a and b` hands on a value, unless tested
            node, parent = parent, self.parents[parent]
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return True
        return isinstance(parent, _TESTS) and parent.test is node

    def _how(self, node: cst.CSTNode) -> str:
        parent = self.parents[node]
        if isinstance(parent, cst.Arg):
            return "handed to a call"
        if isinstance(parent, cst.Return):
            return "returned"
        if self._write(node) is not None:
            return "written inside a nested function or expression"
        if isinstance(parent, cst.Attribute):
            return f"used through `.{parent.attr.value}`"
        return "stored or handed on"


def _index(subscript: cst.Subscript) -> int | None:
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    value = subscript.slice[0].slice.value
    return int(value.value) if isinstance(value, cst.Integer) else None


def _unpack_names(assign: cst.Assign) -> list[str] | None:
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, (cst.Tuple, cst.List)):
        return None
    elements = assign.targets[0].target.elements
    if all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in elements):
        return [e.value.value for e in elements]
    return None
