"""Class families: a class, its bases and its subclasses, across files.

A hijax rule can live outside the class that uses it (a plain mixin, a
project base, a function bound in the body), and a flag set in a base
applies to every subclass. Rules ask here what a class inherits, so that
each class is decided with its whole family in view.
"""

from __future__ import annotations

from .project import Project
from .summary import ClassInfo


def bases(project: Project, info: ClassInfo) -> list[ClassInfo]:
    """The classes of the tree among ``info``'s bases, in order."""
    return [base for name in info.bases for base in project.classes_of_name(info.scope, name)]


def ancestors(project: Project, info: ClassInfo) -> list[ClassInfo]:
    """``info``'s method resolution order within the tree (C3; depth-first where C3 fails)."""
    return _mro(project, info, set())[1:]


def _mro(project: Project, info: ClassInfo, seen: set) -> list[ClassInfo]:
    if info in seen:  # a cycle through broken code
        return [info]
    seen = seen | {info}
    direct = bases(project, info)
    seqs = [_mro(project, base, seen) for base in direct] + [list(direct)]
    order = [info]
    while any(seqs):
        head = next((s[0] for s in seqs if s and not any(s[0] in t[1:] for t in seqs)), None)
        if head is None:  # inconsistent: Python would refuse it; fall back to depth-first
            return order + [c for s in seqs for c in s if c not in order]
        order.append(head)
        seqs = [s[1:] if s and s[0] is head else s for s in seqs]
    return order


def defining(project: Project, info: ClassInfo, name: str) -> tuple[ClassInfo, list[tuple]] | None:
    """The class that provides ``name`` to ``info`` (itself or an ancestor), and its bindings."""
    for cls in [info, *ancestors(project, info)]:
        if cls.body is not None and name in cls.body.bindings:
            return cls, cls.body.bindings[name]
    return None


def flag_value(bindings: list[tuple]) -> bool | None:
    """True/False for a body binding ``name = True``/``False`` (the last one counts)."""
    last = bindings[-1]
    if last[0] == "value" and last[1] in (["True"], ["False"]):
        return last[1] == ["True"]
    return None
