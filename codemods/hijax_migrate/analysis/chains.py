"""Resolving what kind a class is, through chains of bases across modules.

A walk over questions with an explicit stack, never recursion: a chain of
bases and re-exports through modules as deep as a real tree's never meets
Python's recursion limit. A question is ("class", ClassInfo), ("name",
Scope, dotted), ("qualified", dotted) or ("constant", Kind); its answer is a
Kind, or the strongest of the answers to the questions it leads to. Each
answer also carries the modules it was looked up in (found or not), so a
cached result can name every file it depends on.
"""

from __future__ import annotations

import builtins
import sys

from .scopes import ClassInfo, Kind, Scope, strongest

HIJAX_MODULES = ("jax.experimental.hijax", "jax._src.hijax")
BASE_KINDS = {kind.value: kind for kind in (Kind.NEWSTYLE, Kind.VJP, Kind.HIPRIM, Kind.OLD)}
# Bases from these packages are decided: they are never hijax primitives.
KNOWN_NOT_HIJAX = frozenset(sys.stdlib_module_names) | {"jax", "jaxlib", "numpy", "builtins"}
_NOTHING = frozenset()


def star_names(source: str) -> tuple[str, ...]:
    """The base names ``from source import *`` binds: jax's hijax modules have
    no ``__all__``, so a star import brings every base class they hold."""
    return tuple(BASE_KINDS) if source in HIJAX_MODULES else ()


class Resolver:
    """Mixin of a file's view (``project.FileProject``): needs
    ``summary(module)``, ``extra_bases``, the memo ``class_kinds``/``class_deps``
    (the run's index's), and the file's ``answers``: adds to their ``touched``
    the modules each answer rests on, and sets their ``cyclic`` when a cycle
    was cut."""

    def class_kind(self, info: ClassInfo) -> Kind:
        return self._resolve(("class", info))

    def kind_of_name(self, scope: Scope, dotted: str | None) -> Kind:
        return self._resolve(("name", scope, dotted))

    def kind_of_qualified(self, name: str) -> Kind:
        return self._resolve(("qualified", name))

    def _resolve(self, root: tuple) -> Kind:
        answers: dict[tuple, tuple[Kind, frozenset]] = {}
        pending: set[tuple] = set()  # expanded, waiting for their leads: met again, a cycle
        stack: list[tuple[tuple, list | None, frozenset]] = [(root, None, _NOTHING)]
        while stack:
            question, leads, looked_in = stack[-1]
            if leads is None:
                if question in answers:
                    stack.pop()
                    continue
                answer, leads, looked_in = self._expand(question)
                if answer is not None:
                    answers[question] = (answer, looked_in)
                    stack.pop()
                    continue
                stack[-1] = (question, leads, looked_in)
                pending.add(question)
                stack += [(lead, None, _NOTHING) for lead in leads if lead not in answers and lead not in pending]
                continue
            stack.pop()
            pending.discard(question)
            answers[question] = self._combine(leads, answers, looked_in)
            if question[0] == "class":
                self.class_kinds[question[1]], self.class_deps[question[1]] = answers[question]
        kind, looked_in = answers[root]
        self.answers.touched |= looked_in
        return kind

    def _combine(self, leads: list[tuple], answers: dict, looked_in: frozenset) -> tuple[Kind, frozenset]:
        if any(lead not in answers for lead in leads):
            self.answers.cyclic = True  # broken code: the answer depends on where the walk began
        found = [answers[lead] for lead in leads if lead in answers]
        return strongest(kind for kind, _ in found), looked_in.union(*(deps for _, deps in found))

    def _expand(self, question: tuple) -> tuple[Kind | None, list[tuple], frozenset]:
        """A question's answer, or the questions it leads to; and the modules looked in."""
        what = question[0]
        if what == "class":
            info = question[1]
            if info in self.class_kinds:
                return self.class_kinds[info], [], self.class_deps[info]
            return None, [("name", info.scope, base) for base in info.bases], _NOTHING
        if what == "name":
            return (*self._expand_name(question[1], question[2]), _NOTHING)
        if what == "constant":
            return question[1], [], _NOTHING
        return self._expand_qualified(question[1])

    def _expand_name(self, scope: Scope, dotted: str | None) -> tuple[Kind | None, list[tuple]]:
        if dotted is None:
            return Kind.EXTERNAL, []
        head, _, rest = dotted.partition(".")
        if dotted in self.extra_bases or head in self.extra_bases:
            return Kind.VJP, []
        bindings = scope.lookup(head)
        if not bindings:
            return (Kind.NONE if hasattr(builtins, head) else Kind.EXTERNAL), []
        leads = [lead for binding in bindings for lead in _binding_leads(binding, rest)]
        return (None, leads) if leads else (Kind.NONE, [])

    def _expand_qualified(self, name: str) -> tuple[Kind | None, list[tuple], frozenset]:
        if name in self.extra_bases:
            return Kind.VJP, [], _NOTHING
        module, _, attr = name.rpartition(".")
        if module in HIJAX_MODULES:
            return BASE_KINDS.get(attr, Kind.NONE), [], _NOTHING
        parts, looked_in = name.split("."), []
        for cut in range(len(parts) - 1, 0, -1):
            looked_in.append(".".join(parts[:cut]))
            summary = self.summary(looked_in[-1])
            if summary is not None and _star_only(summary.scope, parts[cut]):
                # Another module's name that jax's star import binds: gone there once jax
                # drops it, whatever this module does; undecided, so never half-migrated.
                return Kind.EXTERNAL, [], frozenset(looked_in)
            if summary is not None:
                return None, [("name", summary.scope, ".".join(parts[cut:]))], frozenset(looked_in)
        kind = Kind.NONE if parts[0] in KNOWN_NOT_HIJAX else Kind.EXTERNAL
        return kind, [], frozenset(looked_in)


def _star_only(scope: Scope, name: str) -> bool:
    bindings = scope.bindings.get(name, [])
    return bool(bindings) and all(binding[2:] == ("*",) for binding in bindings)


def _binding_leads(binding: tuple, rest: str) -> list[tuple]:
    what = binding[0]
    if what == "import":
        return [("qualified", f"{binding[1]}.{rest}" if rest else binding[1])]
    if what == "class":  # an attribute of a class is no class we know of
        return [("constant", Kind.NONE)] if rest else [("class", binding[1])]
    refs, scope = binding[1], binding[2]
    return [("name", scope, f"{ref}.{rest}" if rest else ref) for ref in refs]
