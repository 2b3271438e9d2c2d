"""Finding libcst nodes by type and a field or two: what the rules asked of
``libcst.matchers``, whose import (with ``libcst.codemod``'s) took half a
second of a run that migrates a file, for tests that are plain ``isinstance``."""

from __future__ import annotations

from typing import Callable

import libcst as cst


def findall(tree: cst.CSTNode, kind: type | tuple[type, ...],
            test: Callable[[cst.CSTNode], bool] | None = None) -> list:
    """The nodes of ``kind`` in ``tree`` (``tree`` itself included) that pass
    ``test``, in source order, as ``libcst.matchers.findall`` lists them."""
    collect = _Collect(kind, test)
    tree.visit(collect)
    return collect.found


class _Collect(cst.CSTVisitor):
    def __init__(self, kind, test):
        super().__init__()
        self.kind, self.test, self.found = kind, test, []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, self.kind) and (self.test is None or self.test(node)):
            self.found.append(node)
        return True


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
