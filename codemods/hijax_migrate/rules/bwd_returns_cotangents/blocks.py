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

import ast

from ...analysis.ast_summary import rule_form
from ...analysis.class_body import FUNCTIONS, defs_in_blocks, if_arms
from ...analysis.identifiers import occurrences
from ...analysis.scopes import CLASSIC

OLD, NEW = "vjp_bwd", "vjp_bwd_retval"


def renamed_in_blocks(cls: ast.ClassDef) -> list[ast.FunctionDef] | None:
    """The ``def vjp_bwd`` of the body's blocks, where renaming them all is provably right
    (the module docstring); None where it is not."""
    olds = defs_in_blocks([stmt for stmt in cls.body if not isinstance(stmt, FUNCTIONS)], OLD)
    if not olds or occurrences(cls.body, OLD) != len(olds):
        return None  # named otherwise (read, assigned, imported, nested in a method): not proven
    if any(f.decorator_list or rule_form(f) != CLASSIC for f in olds):
        return None
    return olds if not occurrences(cls.body, NEW) or _apart(cls, olds) else None


def _apart(cls: ast.ClassDef, olds: list[ast.FunctionDef]) -> bool:
    """Every ``vjp_bwd_retval`` a ``def`` in an arm of the one ``if`` chain that holds every
    ``vjp_bwd``, and no arm holding both."""
    for stmt in cls.body:
        arms = if_arms(stmt) if isinstance(stmt, ast.If) else []
        news = [f for body in arms for f in defs_in_blocks(body, NEW)]
        if not news:
            continue
        held = [(defs_in_blocks(body, OLD), defs_in_blocks(body, NEW)) for body in arms]
        each = sum(len(old) for old, _ in held) == len(olds) and len(news) == occurrences(cls.body, NEW)
        return each and not any(old and new for old, new in held)
    return False
