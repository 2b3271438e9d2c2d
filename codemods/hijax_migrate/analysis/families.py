"""Class families: a class, its bases and its subclasses, across files.

A hijax rule can live outside the class that uses it (a plain mixin, a
project base, a function bound in the body), and a flag set in a base
applies to every subclass. Rules ask here what a class inherits, so that
each class is decided with its whole family in view.
"""

from __future__ import annotations

from .project import FileProject
from .scopes import CLASSIC, ClassInfo


def bases(project: FileProject, info: ClassInfo) -> list[ClassInfo]:
    """The classes of the tree among ``info``'s bases, in order."""
    return [base for name in info.bases for base in project.classes_of_name(info.scope, name)]


def ancestors(project: FileProject, info: ClassInfo) -> list[ClassInfo]:
    """``info``'s method resolution order within the tree (C3; depth-first where C3 fails)."""
    return _mro(project, info)[1:]


def _mro(project: FileProject, root: ClassInfo) -> list[ClassInfo]:
    """Bottom-up with an explicit stack: a chain of bases as deep as a real
    tree's never meets Python's recursion limit. Kept in the file's view until a
    summary changes (a file's classes are each asked about every other),
    unless a cycle of broken code was cut on the way."""
    memo, done, cyclic = project.mros, {}, False
    direct: dict[ClassInfo, list[ClassInfo]] = {}
    stack, open_ = [root], set()
    while stack:
        info = stack[-1]
        if info in done or info in memo:
            stack.pop()
            continue
        if info not in direct:
            direct[info] = bases(project, info)
            open_.add(info)
            stack += [base for base in direct[info] if base not in done and base not in memo and base not in open_]
            continue
        stack.pop()
        open_.discard(info)  # a base still open is a cycle through broken code: it counts alone
        seqs = [done.get(base) or memo.get(base) for base in direct[info]]
        cyclic |= None in seqs
        done[info] = _merge(info, [seq or [base] for seq, base in zip(seqs, direct[info])], direct[info])
    if not cyclic:
        memo.update(done)
    return done[root] if root in done else memo[root]


def _merge(info: ClassInfo, seqs: list[list[ClassInfo]], direct: list[ClassInfo]) -> list[ClassInfo]:
    seqs = [list(seq) for seq in seqs] + [list(direct)]
    order = [info]
    while any(seqs):
        head = next((s[0] for s in seqs if s and not any(s[0] in t[1:] for t in seqs)), None)
        if head is None:  # inconsistent: Python would refuse it; fall back to depth-first
            return order + [c for s in seqs for c in s if c not in order]
        order.append(head)
        seqs = [s[1:] if s and s[0] is head else s for s in seqs]
    return order


def defining(project: FileProject, info: ClassInfo, name: str) -> tuple[ClassInfo, list[tuple]] | None:
    """The class that provides ``name`` to ``info`` (itself or an ancestor), and its bindings."""
    for cls in [info, *ancestors(project, info)]:
        if cls.body is not None and name in cls.body.bindings:
            return cls, cls.body.bindings[name]
    return None


def is_method(bindings: list[tuple]) -> bool:
    """Is the last binding a ``def``? (Its form is kept: see ``scopes.METHOD``.)"""
    return len(bindings[-1]) > 3


def flag_value(bindings: list[tuple]) -> bool | None:
    """True/False for a body binding ``name = True``/``False`` (the last one counts)."""
    last = bindings[-1]
    if last[0] == "value" and last[1] in (["True"], ["False"]):
        return last[1] == ["True"]
    return None


def form(info: ClassInfo, name: str = "vjp_bwd") -> str | None:
    """The form of the rule ``info``'s body defines last under ``name`` (None: none;
    ``METHOD``: a ``def`` of no known form; "unknown": an assignment)."""
    bindings = info.body.bindings.get(name) if info.body is not None else None
    if not bindings:
        return None
    last = bindings[-1]
    return last[3] if len(last) > 3 else "unknown"


def first_definer(order: list[ClassInfo], name: str) -> ClassInfo | None:
    return next((c for c in order if c.body is not None and name in c.body.bindings), None)


class Classes(list):
    """The classes of one file, with which of them inherit from which, worked
    out once (a file's classes each ask for their subclasses: asking every
    class of the file each time was quadratic)."""

    _below: dict | None = None

    def below(self, project: FileProject, key) -> dict:
        """The classes of this file that inherit from the class ``key``, by key, in order."""
        if self._below is None:
            self._below = {}
            for cls in self:
                for above in ancestors(project, cls):
                    if above.key != cls.key:
                        self._below.setdefault(above.key, {}).setdefault(cls.key, cls)
        return self._below.get(key, {})


def descendants(project: FileProject, info: ClassInfo, here: list[ClassInfo]) -> list[ClassInfo]:
    """Subclasses of ``info`` in this file (``here``) and in the tree's other files."""
    others = [
        c
        for s in project.modules_naming(info.qualname.rsplit(".", 1)[-1])
        for c in s.every_class
        if c.module != info.module
    ]
    found = dict(here.below(project, info.key)) if isinstance(here, Classes) else {}
    for cls in others if isinstance(here, Classes) else [*here, *others]:
        if cls.key != info.key and any(a.key == info.key for a in ancestors(project, cls)):
            found.setdefault(cls.key, cls)
    return list(found.values())


def inheritors(
    project: FileProject, info: ClassInfo, here: list[ClassInfo], name: str
) -> tuple[list[ClassInfo], list[ClassInfo]]:
    """The classes of the tree that get ``name`` from ``info`` (a mixin), and
    those of them that are hijax primitives."""
    users = [
        sub
        for sub in descendants(project, info, here)
        if getattr(first_definer([sub, *ancestors(project, sub)], name), "key", None) == info.key
    ]
    return users, [user for user in users if project.class_kind(user).is_primitive]


def rename_conflict(project: FileProject, info: ClassInfo, here: list[ClassInfo]) -> str | None:
    """Why renaming ``info``'s value ``vjp_bwd`` to ``vjp_bwd_retval`` would make a
    member of its family define both rules (jax: "should not override both")."""
    above = first_definer(ancestors(project, info), "vjp_bwd")
    if above is not None and form(above) != CLASSIC:
        return f"it inherits the accumulator `vjp_bwd` of {above.qualname}"
    for sub in descendants(project, info, here):
        order = [sub, *ancestors(project, sub)]
        keys = [c.key for c in order]
        bwd, retval = first_definer(order, "vjp_bwd"), first_definer(order, "vjp_bwd_retval")
        before = bwd is not None and keys.index(bwd.key) < keys.index(info.key)
        if before and not _renamed_with(bwd) and (retval is None or keys.index(retval.key) > keys.index(info.key)):
            where = f" ({sub.module})" if sub.module != info.module else ""
            return f"its subclass {sub.qualname}{where} has an accumulator `vjp_bwd`"
    return None


def _renamed_with(info: ClassInfo) -> bool:
    """Does ``info``'s own migration rename its ``vjp_bwd`` too? Not if it
    is no value rule, nor if its body defines it twice: the last one then
    takes the accumulator form (see ``rules/bwd_returns_cotangents/families.py``)."""
    defs = [binding for binding in info.body.bindings.get("vjp_bwd", ()) if len(binding) > 3]
    return form(info) == CLASSIC and len(defs) == 1


def families_in_file(project: FileProject, infos: list[ClassInfo]) -> dict[str, str]:
    """Each class -> the first class of its family in the file (joined by inheritance)."""
    root = {info.key: info.key for info in infos}

    def find(key):
        while root[key] != key:
            key = root[key]
        return key

    for info in infos:
        for above in ancestors(project, info):
            if above.key in root:
                root[find(info.key)] = find(above.key)
    return {info.qualname: find(info.key)[1] for info in infos}
