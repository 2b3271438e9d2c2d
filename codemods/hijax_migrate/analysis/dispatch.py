"""libcst's visitors, calling a class's own methods without looking them up at every node.

libcst's ``on_visit`` builds the name ``visit_<Node>`` at every node and looks
it up, and ``on_visit_attribute`` does so again for every field of every node
(``visit_Call_func``): almost always to find, bind and call one of the no-op
stubs of its typed visitor classes (marked ``_is_no_op``). ``QuickVisitor``
and ``QuickTransformer`` find a class's method for a node type once, and call
only the methods the class defines: the same calls in the same order, with
the same results. Methods set on an instance, or on the class after its first
visit, are not seen (no code of the tool sets one: ``tests/test_dispatch.py``),
and a class that defines a field's method (``visit_Call_func``) keeps libcst's
own field dispatch.
"""

from __future__ import annotations

import libcst as cst
from libcst import _typed_visitor

_STUBS = _typed_visitor.__name__


def _own(cls: type, name: str):
    """``cls``'s method ``name``, or None where it is absent or libcst's no-op stub."""
    method = getattr(cls, name, None)
    return None if method is None or getattr(method, "_is_no_op", False) else method


def _defines_field_methods(cls: type) -> bool:
    # A node's class name has no underscore: visit_<Node>_<field> has two or more.
    # libcst's typed classes hold only no-op stubs: skipped (a thousand names each).
    return any(
        name.startswith(("visit_", "leave_")) and name.count("_") > 1 and not getattr(value, "_is_no_op", False)
        for klass in cls.__mro__
        if klass.__module__ != _STUBS
        for name, value in vars(klass).items()
    )


def _method(visitor, kind: type, found: dict, prefix: str):
    """The method of ``visitor``'s class for nodes of type ``kind``, kept in ``found``."""
    try:
        return found[kind]
    except KeyError:
        method = found[kind] = _own(type(visitor), prefix + kind.__name__)
        return method


def _no_field_method(self, node: cst.CSTNode, attribute: str) -> None:
    return None


class _Quick:
    _quick_visits: dict  # named so no visitor's own attribute can hide them
    _quick_leaves: dict

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._quick_visits, cls._quick_leaves = {}, {}  # node type -> the class's method, or None
        libcsts = cst.CSTTransformer if issubclass(cls, cst.CSTTransformer) else cst.CSTVisitor
        names = [
            name
            for name in ("on_visit_attribute", "on_leave_attribute")
            if getattr(cls, name) in (_no_field_method, getattr(libcsts, name))
        ]  # not a class's own
        fields = bool(names) and _defines_field_methods(cls)
        for name in names:
            setattr(cls, name, getattr(libcsts, name) if fields else _no_field_method)

    def on_visit(self, node: cst.CSTNode) -> bool:
        try:  # asked of every node: the found method's look-up inlined
            method = self._quick_visits[type(node)]
        except KeyError:
            method = _method(self, type(node), self._quick_visits, "visit_")
        return method is None or method(self, node) is not False


class QuickVisitor(_Quick, cst.CSTVisitor):
    def on_leave(self, original_node: cst.CSTNode) -> None:
        method = _method(self, type(original_node), self._quick_leaves, "leave_")
        if method is not None:
            method(self, original_node)


class QuickTransformer(_Quick, cst.CSTTransformer):
    def on_leave(self, original_node, updated_node):
        try:
            method = self._quick_leaves[type(original_node)]
        except KeyError:
            method = _method(self, type(original_node), self._quick_leaves, "leave_")
        return updated_node if method is None else method(self, original_node, updated_node)
