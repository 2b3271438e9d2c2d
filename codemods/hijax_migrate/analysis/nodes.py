"""Finding libcst nodes by type and a field or two: what the rules asked of
``libcst.matchers``, whose import (with ``libcst.codemod``'s) took half a
second of a run that migrates a file, for tests that are plain ``isinstance``."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .dispatch import QuickVisitor


def findall(
    tree: cst.CSTNode, kind: type | tuple[type, ...], test: Callable[[cst.CSTNode], bool] | None = None
) -> list:
    """The nodes of ``kind`` in ``tree`` (``tree`` itself included) that pass
    ``test``, in source order, as ``libcst.matchers.findall`` lists them."""
    collect = _Collect(kind, test)
    tree.visit(collect)
    return collect.found


class _Collect(QuickVisitor):
    def __init__(self, kind, test):
        super().__init__()
        self.kind, self.test, self.found = kind, test, []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, self.kind) and (self.test is None or self.test(node)):
            self.found.append(node)
        return True


def positions(wrapper: MetadataWrapper) -> Mapping:
    """``wrapper.resolve(PositionProvider)``, without the walk libcst's resolve
    adds: each round of it visits the tree for the round's batchable
    providers, none when positions are asked for alone (a visit of every node
    for nothing: 0.5 s of jax's hijax_test.py). Where libcst's internals
    differ, its own resolve."""
    try:
        found = wrapper._metadata.get(PositionProvider)
        if found is None:
            found = wrapper._metadata[PositionProvider] = PositionProvider()._gen(wrapper)
        return found
    except AttributeError:
        return wrapper.resolve(PositionProvider)


def in_leave_order(nodes: set[cst.CSTNode], parents) -> list[cst.CSTNode]:
    """``nodes`` in the order a visit leaves them (a node after the nodes inside it,
    siblings in source order), from their paths up ``parents``: no positions."""
    key = _path_key(parents)
    return sorted(nodes, key=lambda node: (*key(node), math.inf))  # a node after every node under it


def in_visit_order(nodes, parents) -> list[cst.CSTNode]:
    """``nodes`` in the order a visit enters them (a node before the nodes inside it)."""
    return sorted(nodes, key=_path_key(parents))


def _path_key(parents) -> Callable[[cst.CSTNode], tuple]:
    """A node -> its places among its siblings (libcst's ``children``: the visit's order), from the root down."""
    orders: dict[int, dict[int, int]] = {}  # id(parent) -> id(child) -> its place

    def key(node: cst.CSTNode) -> tuple:
        path = []
        while node in parents:
            parent = parents[node]
            order = orders.get(id(parent))
            if order is None:
                order = orders[id(parent)] = {id(child): i for i, child in enumerate(parent.children)}
            path.append(order[id(node)])
            node = parent
        return tuple(reversed(path))

    return key


def is_name(node: object, *values: str) -> bool:
    """A ``Name``; given ``values``, one of them."""
    return isinstance(node, cst.Name) and (not values or node.value in values)


def is_call(node: object, *names: str) -> bool:
    """A call of a plain name among ``names``: ``super()``, ``tuple(...)``."""
    return isinstance(node, cst.Call) and is_name(node.func, *names)


def is_attribute(node: object, attr: str) -> bool:
    """``<anything>.attr``."""
    return isinstance(node, cst.Attribute) and node.attr.value == attr


def sole_target(node: object) -> cst.BaseAssignTargetExpression | None:
    """What ``target = value`` assigns to, for an assignment with one target."""
    return node.targets[0].target if isinstance(node, cst.Assign) and len(node.targets) == 1 else None


class LazyParents(Mapping):
    """ParentNodeProvider's answers, walked a statement of the module at a
    time, when first asked of one of its nodes: a rule asks of its class's
    nodes and its helpers', not of the whole module's (a walk of jax's
    ad_checkpoint.py costs 0.8 s)."""

    def __init__(self, module: cst.Module):
        self._module, self._known, self._todo = module, {}, list(reversed(module.children))

    def __getitem__(self, node: cst.CSTNode) -> cst.CSTNode:
        while node not in self._known:
            if node is self._module or not self._todo:
                raise KeyError(node)  # the module has no parent; nor has a node of another tree
            self._module_statement(self._todo.pop())
        return self._known[node]

    def _module_statement(self, stmt: cst.CSTNode) -> None:
        parents_under(stmt, self._known, self._module)

    def __iter__(self):
        while self._todo:
            self._module_statement(self._todo.pop())
        return iter(self._known)

    def __len__(self) -> int:
        return sum(1 for _ in self)


_FIELDS: dict[type, tuple[str, ...]] = {}  # node type -> its fields' names


def field_names(node: cst.CSTNode) -> tuple[str, ...]:
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(f.name for f in dataclasses.fields(node))
    return names


_IS_NODE: dict[type, bool] = {}  # a type -> is it a libcst node's (an ABC: slow to ask each time)
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}  # node type -> its fields that may hold a node
_NO_NODE = (str, bool, str | None)  # fields typed so hold none (a name's value, a line's indent)


def _node_fields(kind: type) -> tuple[str, ...]:
    names = _NODE_FIELDS.get(kind)
    if names is None:
        names = _NODE_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.type not in _NO_NODE)
    return names


def child_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node``'s children, read from its fields, in no particular order:
    libcst's ``children`` and visits rebuild every node they pass (a walk of
    jax's hijax_test.py costs 0.7 s this way, 0.2 s from the fields)."""
    found = []
    for name in _node_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, (list, tuple)):
            found.extend(item for item in value if _is_node(item))
        elif _is_node(value):
            found.append(value)
    return found


def _is_node(value: object) -> bool:
    kind = type(value)
    node = _IS_NODE.get(kind)
    if node is None:
        node = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return node


def parents_under(root: cst.CSTNode, known: dict | None = None, parent: cst.CSTNode | None = None) -> dict:
    """Each node under ``root`` -> its parent (``root``'s own: ``parent``, where given),
    added to ``known``: ParentNodeProvider's answers without its visit."""
    known = {} if known is None else known
    if parent is not None:
        known[root] = parent
    stack = [root]
    while stack:
        node = stack.pop()
        for child in child_nodes(node):
            known[child] = node
            stack.append(child)
    return known


def parents_and_nodes(root: cst.CSTNode, kinds: tuple[type, ...], under=None) -> tuple[dict, dict[type, list]]:
    """``parents_under(root)``, and the nodes under it of each of ``kinds`` (by exact
    type), in no particular order: one walk for both (``in_visit_order`` orders them).
    ``under``: only these children of ``root`` are walked (None: all)."""
    known: dict = {}
    found: dict[type, list] = {kind: [] for kind in kinds}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in child_nodes(node) if node is not root or under is None else under:
            known[child] = node
            if _node_fields(type(child)):  # whitespace, a comment, a newline: a leaf
                stack.append(child)
            bucket = found.get(type(child))
            if bucket is not None:
                bucket.append(child)
    return known, found


# Where a name is bound, not read (libcst's ExpressionContextProvider: STORE), through
# the tuples, lists and starred elements of a target.
_TARGETS = (
    (cst.AssignTarget, "target"),
    (cst.AnnAssign, "target"),
    (cst.AugAssign, "target"),
    (cst.NamedExpr, "target"),
    (cst.AsName, "name"),
    (cst.CompFor, "target"),
    (cst.For, "target"),
)


def is_store(name: cst.Name, parents) -> bool:
    """Is ``name`` a target that binds it (``x = ...``, ``for x in``, ``as x``, ``(a, x) = ...``)?"""
    node, parent = name, parents.get(name)
    while isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
        node, parent = parent, parents.get(parent)
    return any(isinstance(parent, kind) and getattr(parent, field) is node for kind, field in _TARGETS)
