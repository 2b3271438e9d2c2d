"""``vjp_bwd`` defined inside blocks of a class body (``with``, ``try``, ``for``,
``if``...): when renaming every one is right.

Python runs a class body once, top to bottom; a ``def`` in any block binds its
name each time it runs, and nothing where it does not run. Where every binding
of ``vjp_bwd`` in the body is such a ``def`` of a plain value rule (the body
names ``vjp_bwd`` nowhere else: no read, no other binding), renaming each to
``vjp_bwd_retval`` binds, on every path the body can take, the same function
under the name the target reads, and nothing where nothing was bound. A
``vjp_bwd_retval`` may stand beside them only as a ``def`` in another arm of
the one ``if`` chain holding them all (a version switch between the two forms):
no path then binds both names, and after the rename each arm binds one.
"""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import findall
from ...analysis.summary import CLASSIC, rule_form
from ..gates import if_arms

OLD, NEW = "vjp_bwd", "vjp_bwd_retval"
_INNER = (cst.BaseSuite, cst.BaseCompoundStatement, cst.Else, cst.ExceptHandler, cst.Finally)
_INNER += (cst.MatchCase,) if hasattr(cst, "MatchCase") else ()


def defs_in_blocks(body: cst.CSTNode, name: str) -> list[cst.FunctionDef]:
    """Every ``def name`` reached through blocks of ``body`` (never into a function or a class)."""
    found, stack = [], [body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef):
            found += [node] if node.name.value == name else []
        elif not isinstance(node, cst.ClassDef):
            stack.extend(reversed([child for child in node.children if isinstance(child, _INNER)]))
    return found


def _named(node: cst.CSTNode, name: str) -> int:
    return len(findall(node, cst.Name, lambda n: n.value == name))


def renamed_in_blocks(cls: cst.ClassDef) -> list[cst.FunctionDef] | None:
    """The ``def vjp_bwd`` of the body's blocks, where renaming them all is provably right
    (the module docstring); None where it is not."""
    olds = [f for stmt in cls.body.body if not isinstance(stmt, cst.FunctionDef) for f in defs_in_blocks(stmt, OLD)]
    if not olds or _named(cls.body, OLD) != len(olds):
        return None  # named otherwise (read, assigned, imported, nested in a method): not proven
    if any(f.decorators or rule_form(f) != CLASSIC for f in olds):
        return None
    return olds if not _named(cls.body, NEW) or _apart(cls, olds) else None


def _apart(cls: cst.ClassDef, olds: list[cst.FunctionDef]) -> bool:
    """Every ``vjp_bwd_retval`` a ``def`` in an arm of the one ``if`` chain that holds every
    ``vjp_bwd``, and no arm holding both."""
    for stmt in cls.body.body:
        arms = if_arms(stmt) if isinstance(stmt, cst.If) else []
        news = [f for _, body in arms for f in defs_in_blocks(body, NEW)]
        if not news:
            continue
        held = [(defs_in_blocks(body, OLD), defs_in_blocks(body, NEW)) for _, body in arms]
        each = sum(len(old) for old, _ in held) == len(olds) and len(news) == _named(cls.body, NEW)
        return each and not any(old and new for old, new in held)
    return False
