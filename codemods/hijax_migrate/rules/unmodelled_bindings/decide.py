"""HJX016's decision, over ``ast``: which bindings of API names no rule accounts for.

One implementation, read twice: triage asks whether a file holds any (then it
needs libcst, which names the classes and lines), the rewrite reports each.
The decision reads a module's class statements with their kinds and
summaries (``Classes``), the forms the target's rules decide, and the arms of
version gates the target never runs (``dead``: triage, which evaluates no
gate, passes none, and so finds a superset).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

from ...analysis import families
from ...analysis.ast_summary import dotted_name
from ...analysis.chains import HIJAX_MODULES
from ...analysis.namespace import COMPUTED, DEF, FACTORY, GIVEN, IN_BLOCK, ON_BASE, Binding, body_bindings
from ...analysis.namespace_after import outside_bindings
from ...analysis.probes import base_bound_at_run
from ...analysis.scopes import ClassInfo, Kind, defines_rules, strongest
from .accounts import rebound, unaccounted, wrapped_by_name

_RULES = ("vjp_fwd", "vjp_bwd", "vjp_bwd_retval")  # as ``scopes.defines_rules`` asks of a summary
_DEFS = frozenset({DEF, DEF + IN_BLOCK})  # the forms of ``vjp_bwd`` decided on a class that is no primitive


@dataclass(frozen=True)
class Classes:
    """A module's class statements (``ast_summary.class_statements``' order), each with its
    kind (fixtures: none) and summary; the module's scope and the run's project answer names."""

    statements: list[ast.ClassDef]
    kinds: list[Kind]
    infos: list[ClassInfo | None]
    scope: object
    project: object


@dataclass(frozen=True)
class Open:
    """A binding no rule accounts for, on class ``index`` (None: a class made by a call)."""

    index: int | None
    binding: Binding


@dataclass(frozen=True)
class Again:
    """``name`` bound more than once in class ``index``'s body, in forms no rule orders."""

    index: int
    name: str
    bindings: list[Binding]


Dead = Callable[[int], list[tuple[int, int]]]  # class index -> line spans of gate arms never run


def unaccounted_bindings(
    tree: ast.Module, classes: Classes, binds: Mapping[str, frozenset[str]], code: str | None, dead: Dead | None = None
) -> Iterator[Open | Again]:
    """Each binding of the module no rule accounts for, in the order the rule reports them:
    class bodies first, then the bindings made outside them."""
    if not binds:
        return
    bodies = [body_bindings(stmt) for stmt in classes.statements]
    may = [_may_be_primitive(classes, i, bindings) for i, bindings in enumerate(bodies)]
    below = _Inherited(classes, binds)
    for index, (bindings, maybe) in enumerate(zip(bodies, may)):
        if maybe:
            yield from _in_body(tree, classes, index, bindings, _decided(classes, index, binds), dead)
        elif below(index, bindings):
            yield from _in_body(tree, classes, index, bindings, on_base(binds), dead)
    for index, binding in outside_bindings(tree, classes.statements, code):
        if index is not None and wrapped_by_name(binding, classes.statements, index):
            continue  # HJX001 follows the reference by name, or refuses the family (analysis.name_refs)
        binding = _owned(classes, binding)
        maybe = _maybe(classes, binding, index, may) or index is not None and below(index, [binding])
        cls = classes.statements[index] if index is not None else None
        if index is None and binding.form == FACTORY and _bases_at_run(classes, binding.value):
            # no rule migrates a rule placed on such a class: only a value proven right stands
            if maybe and unaccounted([binding], _without(binds, FACTORY), tree):
                yield Open(index, binding)
        elif maybe and unaccounted([binding], binds, tree, outside=not _given_elsewhere(binding, may), cls=cls):
            yield Open(index, binding)


class _Inherited:
    """Does a primitive of the tree (or a class that may be one: ``_primitive_like``) inherit from
    class ``index``, no primitive itself (a mixin whose rules it gets: ``families.descendants``,
    here and in the tree's other files)? Asked
    only of a class binding a name a rule of the target reads; jax's own bases never."""

    def __init__(self, classes: Classes, binds: Mapping[str, frozenset[str]]):
        self.classes, self.binds, self.known = classes, binds, {}

    def __call__(self, index: int, bindings: list[Binding]) -> bool:
        if not any(b.name is None or b.name in self.binds for b in bindings):
            return False
        if index not in self.known:
            self.known[index] = self._below(self.classes.infos[index])
        return self.known[index]

    def _below(self, info: ClassInfo | None) -> bool:
        project = self.classes.project
        if info is None or project is None or info.module in HIJAX_MODULES:
            return False
        here = families.Classes(i for i in self.classes.infos if i is not None)
        return any(self._may_get_rules(project, sub) for sub in families.descendants(project, info, here))

    @staticmethod
    def _may_get_rules(project, sub: ClassInfo) -> bool:
        """``_primitive_like``, or a class whose base is picked when the code runs, whose rules
        may all be the mixin's (``class P(Mixin, BASES[0]): pass``)."""
        return _primitive_like(project, sub) or project.runtime_base(sub) is not None  # (or: no primitive)


def on_base(binds: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """The forms the rules decide on a class a primitive inherits from (``namespace.ON_BASE``)."""
    return {
        name: frozenset(f.removesuffix(ON_BASE) for f in forms if f.endswith(ON_BASE)) for name, forms in binds.items()
    }


def _owned(classes: Classes, binding: Binding) -> Binding:
    """A binding on a name the module binds to a value the code computes (``M = [Op][0]``,
    ``M = make()``), which names no class of the tree: on any class (``COMPUTED``)."""
    on = binding.on
    # the scope's lookup first: a name bound otherwise is asked its classes once, by ``_maybe``
    if on in (None, GIVEN, COMPUTED) or not _computed(classes, on) or _names_primitive(classes, on):
        return binding
    return replace(binding, on=COMPUTED)


def _maybe(classes: Classes, binding: Binding, index: int | None, may: list[bool]) -> bool:
    """May the class a binding made outside the bodies is on be a primitive?"""
    if binding.on in (GIVEN, COMPUTED):  # a class of this module, or of any other (a helper module's), may be
        return any(may) or binding.name is not None
    if binding.on is not None:
        return _names_primitive(classes, binding.on)
    return may[index] if index is not None else _bases_may_be(classes, binding.value, any(may))


def _given_elsewhere(binding: Binding, may: list[bool]) -> bool:
    """A class a function is given, where no class of this module may be a primitive (a helper
    module's): no rule of this module renames that class's own rule, so a value proven right at
    the target (jax's own, a function of this module in the accumulator form) stands."""
    return binding.on in (GIVEN, COMPUTED) and not any(may)


def _in_body(
    tree: ast.Module, classes: Classes, index: int, bindings: list[Binding], decided: Mapping, dead: Dead | None
) -> Iterator[Open | Again]:
    """Each binding of the body no rule accounts for; each name bound again in another form.
    An arm of a version gate no release of the target's line runs binds nothing there."""
    spans = dead(index) if dead is not None else []
    bindings = [b for b in bindings if not any(first <= b.line <= last for first, last in spans)]
    open_ = unaccounted(bindings, decided, tree, cls=classes.statements[index])
    yield from (Open(index, binding) for binding in open_)
    for name, again in rebound(bindings, decided).items():
        if not any(b.name == name for b in open_):
            yield Again(index, name, again)


def _may_be_primitive(classes: Classes, index: int, bindings: list[Binding]) -> bool:
    """A primitive, or undecided (a base from outside the tree, or one picked when the code
    runs) with a hijax rule bound in its body, in any form."""
    kind, info = classes.kinds[index], classes.infos[index]
    if kind.is_primitive:
        return True
    if info is None or not (defines_rules(info) or any(b.name in _RULES for b in bindings)):
        return False
    return kind is Kind.EXTERNAL or base_bound_at_run(kind, info, classes.project) is not None


def _decided(classes: Classes, index: int, binds: Mapping) -> Mapping:
    """The forms the rules decide on a class. On a class that is no primitive to them (its base
    picked when the code runs) no rule migrates a rule bound by an assignment: only a ``def``
    of ``vjp_bwd`` is decided there (reported by HJX001 and the engine where it returns
    cotangents, ``probes.value_rule``); every other form is this rule's error."""
    if not _at_run(classes, index):
        return binds
    return {**binds, "vjp_bwd": binds.get("vjp_bwd", frozenset()) & _DEFS}


def _at_run(classes: Classes, index: int) -> bool:
    """No primitive to the rules, but its base, or a base of a class of the tree it derives
    from, is picked when the code runs (a call, ``BASES[0]``, a probe, arms that disagree)."""
    kind, info, project = classes.kinds[index], classes.infos[index], classes.project
    if kind.is_primitive or info is None or project is None:
        return False
    undecided = kind is Kind.EXTERNAL and project.undecided_base(info) is not None
    return undecided or base_bound_at_run(kind, info, project) is not None


def _names_primitive(classes: Classes, dotted: str) -> bool:
    """Does ``dotted`` name a class of the tree (another module's, an alias, one made by ``type()``)
    that is or may be a primitive: its base from outside the tree with rules of its own, or
    picked when the code runs?"""
    if classes.scope is None:
        return False
    project = classes.project
    return any(_primitive_like(project, info) for info in project.classes_of_name(classes.scope, dotted))


def _primitive_like(project, info: ClassInfo) -> bool:
    """Is the class of the tree a primitive, or may it be one: its base from outside the tree with
    rules of its own, or picked when the code runs?"""
    kind = project.class_kind(info)
    return (
        kind.is_primitive
        or kind is Kind.EXTERNAL
        and defines_rules(info)
        or base_bound_at_run(kind, info, project) is not None
    )


def _computed(classes: Classes, dotted: str) -> bool:
    """Is ``dotted``'s first name bound, where the module binds it, to a value no summary
    follows (``M = [Mul][0]``, ``M = make()``): it may be any class when the code runs."""
    bindings = classes.scope.lookup(dotted.partition(".")[0]) if classes.scope is not None else []
    return any(b[0] == "value" and len(b) == 3 and not b[1] for b in bindings)


def _bases_at_run(classes: Classes, bases: ast.expr | None) -> bool:
    """Bases of a class made by a call that are picked when the code runs (not a tuple of
    names, a call, ``BASES[0]``, a name bound when the code runs)."""
    if not isinstance(bases, ast.Tuple) or classes.scope is None:
        return True
    names = [dotted_name(element) for element in bases.elts]
    return None in names or classes.project.bound_at_run("", classes.scope, names) is not None


def _without(binds: Mapping[str, frozenset[str]], form: str) -> dict[str, frozenset[str]]:
    return {name: forms - {form} for name, forms in binds.items()}


def _bases_may_be(classes: Classes, bases: ast.expr | None, unreadable: bool) -> bool:
    """Bases of a class made by a call: may it be a primitive? ``unreadable``: the answer
    where they cannot be read."""
    if not isinstance(bases, ast.Tuple) or classes.scope is None:
        return unreadable
    if _bases_at_run(classes, bases):
        return True  # a base picked when the code runs (a call, ``BASES[0]``): it may be a primitive
    names = [dotted_name(element) for element in bases.elts]
    kind = strongest(classes.project.kind_of_name(classes.scope, name) for name in names)
    return kind.is_primitive or kind is Kind.EXTERNAL and unreadable
