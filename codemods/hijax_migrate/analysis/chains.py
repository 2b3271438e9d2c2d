"""Resolving what kind a class is, through chains of bases across modules.

A walk over questions with an explicit stack, never recursion: a chain of
bases and re-exports through modules as deep as a real tree's never meets
Python's recursion limit. A question is ("class", ClassInfo), ("name",
Scope, dotted), ("qualified", dotted), ("constant", Kind), ("arms", Scope,
dotted names) or ("attribute", ClassInfo, dotted); its answer is a Kind, or
the strongest of the answers to the questions it leads to. The arms of one
base expression (``A if c else B``) must agree: each a primitive (the
strongest wins, as for a version switch), or all of one kind; else the base
is undecidable. An attribute of a class (``NS.Base``) is looked up as
Python does: the class's own body, then its bases. Each
answer also carries the modules it was looked up in (found or not), so a
cached result can name every file it depends on.
"""

from __future__ import annotations

import builtins
import sys

from .scopes import PRIMITIVE_KINDS, ClassInfo, Kind, Scope, strongest

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
    """Mixin of a file's view (``project.FileProject``): needs ``classes_of_name``,
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
            answers[question] = self._combine(leads, answers, looked_in, question[0] == "arms")
            if question[0] == "class":
                self.class_kinds[question[1]], self.class_deps[question[1]] = answers[question]
        kind, looked_in = answers[root]
        self.answers.touched |= looked_in
        return kind

    def _combine(
        self, leads: list[tuple], answers: dict, looked_in: frozenset, arms: bool = False
    ) -> tuple[Kind, frozenset]:
        if any(lead not in answers for lead in leads):
            self.answers.cyclic = True  # broken code: the answer depends on where the walk began
        found = [answers[lead] for lead in leads if lead in answers]
        kinds = [kind for kind, _ in found]
        return (agreed(kinds) if arms else strongest(kinds)), looked_in.union(*(deps for _, deps in found))

    def undecided_base(self, info: ClassInfo) -> str | None:
        """What makes an undecidable class's base undecidable, for a finding: arms
        that disagree, or a base that is no name (a call), its own or that of a class
        of the tree it derives from (walked, never recursed); None: neither."""
        stack, seen, via = [(info, "")], {info.key}, ""
        while stack:
            current, via = stack.pop()
            arms = self.disagreeing_arms(current)
            if arms or None in current.bases:
                why = arms_text(arms) if arms else "an expression that is no name (a call, a subscript...)"
                return f"{via}{why}" if via else why
            for base in current.bases:
                for parent in self.classes_of_name(current.scope, base):
                    if parent.key not in seen and self.class_kind(parent) is Kind.EXTERNAL:
                        seen.add(parent.key)
                        stack.append((parent, via or f"`{base}`, a class of the tree whose base is "))
        return None

    def disagreeing_arms(self, info: ClassInfo) -> list[tuple[str | None, Kind]]:
        """The arms of the first of ``info``'s base expressions whose arms disagree,
        each with its kind (none: every expression's arms agree)."""
        for group in info.arms:
            kinds = [(info.bases[i], self.kind_of_name(info.scope, info.bases[i])) for i in group]
            if agreed(kind for _, kind in kinds) is Kind.EXTERNAL and any(k is not Kind.EXTERNAL for _, k in kinds):
                return kinds
        return []

    def _expand(self, question: tuple) -> tuple[Kind | None, list[tuple], frozenset]:
        """A question's answer, or the questions it leads to; and the modules looked in."""
        what = question[0]
        if what == "class":
            info = question[1]
            if info in self.class_kinds:
                return self.class_kinds[info], [], self.class_deps[info]
            return None, _base_leads(info), _NOTHING
        if what == "arms":
            return None, [("name", question[1], ref) for ref in question[2]], _NOTHING
        if what == "attribute":
            return (*_attribute(question[1], question[2]), _NOTHING)
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


def agreed(kinds) -> Kind:
    """The kind of a base whose arms have ``kinds``: all primitives, the strongest
    (a version switch); all one kind, that one; else undecidable."""
    present = set(kinds)
    if present and (present <= PRIMITIVE_KINDS or len(present) == 1):
        return strongest(present)
    return Kind.EXTERNAL


def arms_text(arms: list[tuple[str | None, Kind]]) -> str:
    """``A` (VJPHiPrimitive) or `B` (not a hijax primitive)``, for a finding."""
    return " or ".join(f"`{name}` ({kind.value})" if name else f"an expression ({kind.value})" for name, kind in arms)


def _base_leads(info: ClassInfo) -> list[tuple]:
    """A question for each base, one for each expression whose arms are alternatives."""
    grouped = {i for group in info.arms for i in group}
    leads = [("name", info.scope, base) for i, base in enumerate(info.bases) if i not in grouped]
    return leads + [("arms", info.scope, tuple(info.bases[i] for i in group)) for group in info.arms]


def _attribute(info: ClassInfo, dotted: str) -> tuple[Kind | None, list[tuple]]:
    """``Class.dotted``: what the class body binds to its head, else its bases'
    attribute (a chain longer than any real one: a cycle of broken code)."""
    head, _, rest = dotted.partition(".")
    bindings = info.body.bindings.get(head, []) if info.body is not None else []
    if bindings:
        return None, [lead for binding in bindings for lead in _binding_leads(binding, rest)]
    if not info.bases or dotted.count(".") > _LONGEST_ATTRIBUTE:
        return Kind.NONE if not info.bases else Kind.EXTERNAL, []
    return None, [
        ("name", info.scope, f"{base}.{dotted}") if base else ("constant", Kind.EXTERNAL) for base in info.bases
    ]


_LONGEST_ATTRIBUTE = 8


def _star_only(scope: Scope, name: str) -> bool:
    bindings = scope.bindings.get(name, [])
    return bool(bindings) and all(binding[2:] == ("*",) for binding in bindings)


def _binding_leads(binding: tuple, rest: str) -> list[tuple]:
    what = binding[0]
    if what == "import":
        return [("qualified", f"{binding[1]}.{rest}" if rest else binding[1])]
    if what == "class":
        return [("attribute", binding[1], rest)] if rest else [("class", binding[1])]
    refs, scope = binding[1], binding[2]
    return [("name", scope, f"{ref}.{rest}" if rest else ref) for ref in refs]
