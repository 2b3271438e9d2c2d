"""A suppression in one file reaching the classes of another.

A family (a class, its bases and their subclasses, in any file of the tree)
is migrated whole or not at all: a subclass renamed in one file while its
base is left alone in another fails under jax ("should not override
both"). So a file's classes are left alone too where their family reaches a
class that a comment in another file leaves alone. Which classes that
comment covers is that file's own migration's answer (``Decider.marked``),
so both files decide alike; it is asked only of files whose bytes hold a mark.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.families import Classes, bases, descendants
from ..analysis.scopes import defines_rules
from ..sources.mark_bytes import may_mark


@dataclass(frozen=True)
class Reach:
    """The marked class a family reaches, and where its mark stands."""

    module: str
    qualname: str
    line: int


@dataclass
class Reached:
    """Of a module's classes: those whose family reaches a class another file's comment
    leaves alone (``hits``), and, for each, the module's classes of its family (``kin``:
    siblings under a base in another file are one family, though no class here joins them)."""

    hits: dict[str, Reach]
    kin: dict[str, frozenset[str]]


def reached(project, options, module: str) -> Reached:
    """This module's families across the tree, and the marks of other files they reach
    (nothing without a tree to look in)."""
    if not module or project is None or project.decider is None:
        return Reached({}, {})
    summary = project.summary(module)
    if summary is None:
        return Reached({}, {})
    walk = _Walk(project, options)
    # Each class defining rules is walked, asking for its subclasses: searches to come, at least.
    project.index.searching({info.qualname.rsplit(".", 1)[-1] for info in summary.every_class if defines_rules(info)})
    for info in summary.every_class:
        if info.key in walk.reach or not (project.class_kind(info).is_primitive or defines_rules(info)):
            continue
        walk.family(info)
    hits = {info.qualname: walk.reach[info.key] for info in summary.every_class if walk.reach.get(info.key)}
    kin = {
        info.qualname: frozenset(key[1] for key in walk.members[info.key] if key[0] == module)
        for info in summary.every_class
        if info.key in walk.members
    }
    return Reached(hits, kin)


class _Walk:
    """The families met, each class's reach (None: none), and each module's marks, asked once."""

    def __init__(self, project, options):
        self.project, self.options = project, options
        self.reach: dict[tuple, Reach | None] = {}
        self.members: dict[tuple, set] = {}  # each class met -> the keys of its family
        self._marked: dict[str, dict[str, int]] = {}
        self._here: dict[str, Classes] = {}

    def family(self, info) -> None:
        members, stack = {info.key: info}, [info]
        while stack:
            current = stack.pop()
            for other in [*bases(self.project, current), *self._below(current)]:
                if other.key not in members:
                    members[other.key] = other
                    stack.append(other)
        hits = [
            Reach(member.module, member.qualname, line)
            for member in members.values()
            if member.module != info.module and (line := self.marked(member.module).get(member.qualname))
        ]
        for key in members:
            self.reach[key] = hits[0] if hits else None
            self.members[key] = set(members)

    def _below(self, info) -> list:
        if info.module not in self._here:
            summary = self.project.summary(info.module)
            self._here[info.module] = Classes(summary.every_class if summary is not None else [])
        return descendants(self.project, info, self._here[info.module])

    def marked(self, module: str) -> dict[str, int]:
        if module not in self._marked:
            path = self.project.find(module)
            data = self.project.reads.read(path) if path is not None else None
            has_marks = data is not None and may_mark(data)
            self._marked[module] = self.project.decider.marked(self.project, self.options, module) if has_marks else {}
        return self._marked[module]
