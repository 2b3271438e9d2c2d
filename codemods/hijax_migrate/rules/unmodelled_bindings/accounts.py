"""Which bindings of API names no rule accounts for, over ``ast``.

A binding is accounted for when a rule released by the target decides its
form (``Rule.binds``, merged into ``FileContext.binds``), when its name is
one no released rule reads (nothing about it changes at the target), or
when it provably cannot break: a value that is jax's own (imported from
jax: right at the release that has it), a ``vjp_bwd`` bound to a function
of the module already in the accumulator form, and a ``del``/``global``
of a name the body binds in no other way. Bindings made outside the body
are proved by jax's own values alone.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Mapping

from ...analysis.ast_summary import rule_form
from ...analysis.function_kinds import not_run
from ...analysis.fwd_signature import lacks_nzs_in
from ...analysis.names import NameModel
from ...analysis.namespace import (
    ANNOTATED,
    ASSIGN,
    ATTRIBUTE,
    CHAINED,
    DECORATOR,
    DEF,
    DELETE,
    FACTORY,
    GLOBAL,
    IN_BLOCK,
    INIT_SUBCLASS,
    NONLOCAL,
    SETATTR,
    UNPACKING,
    WALRUS,
    Binding,
)
from ...analysis.scopes import ACCUMULATOR, CLASSIC
from ...core.stmts import statements
from ..ast_tests import methods

_ALONE = (DELETE, GLOBAL, NONLOCAL)  # harmless where the body binds the name no other way
_REPEATABLE = ({DEF}, {DEF + IN_BLOCK})  # bound again in these alone: the rules decide which is kept
_WHOLE = frozenset({ASSIGN, ANNOTATED, CHAINED, UNPACKING, WALRUS, ATTRIBUTE, SETATTR})  # the value bound whole


def unaccounted(
    bindings: list[Binding],
    decided: Mapping[str, frozenset[str]],
    tree: ast.Module,
    outside: bool = False,
    cls: ast.ClassDef | None = None,
) -> list[Binding]:
    """``bindings`` (of one class: ``cls``, None where a call makes it) that no rule in ``decided``
    accounts for. ``outside``: made outside the class body, where a rename of the class's rule
    renames ``Cls.vjp_bwd`` too (whatever it binds there then changes name: no value is proof)."""
    open_ = [b for b in bindings if b.name is None or b.name in decided and b.key not in decided[b.name]]
    if not open_:  # most classes: the module is not walked for proofs
        return []
    jax, funcs = jax_names(tree), {} if outside else module_functions(tree)
    bound = {b.name for b in bindings if b.form not in _ALONE}
    model = functools.cache(lambda: NameModel.of(tree))  # walked once, where a proof asks for it
    return [
        b
        for b in open_
        if not (_proved(b, jax, funcs) or _takes_nzs_in(b, model, cls)) and (b.form not in _ALONE or b.name in bound)
    ]


def _proved(b: Binding, jax: set[str], funcs: dict[str, ast.FunctionDef]) -> bool:
    """A value jax's own, or a ``vjp_bwd`` of the module already in the accumulator form (a
    function whose call runs its body: ``function_kinds``)."""
    value = bound_value(b)
    if b.name is None:
        return False
    func = funcs.get(value.id) if isinstance(value, ast.Name) else None
    accumulates = func is not None and rule_form(func) == ACCUMULATOR and not_run(func) is None
    return _root(value) in jax or b.name == "vjp_bwd" and accumulates


def bound_value(b: Binding) -> ast.expr | None:
    """What ``b`` binds, where one expression says it: a ``type()`` member's value, not the bases."""
    if b.form != FACTORY:
        return b.value
    members = _members(b.namespace)
    return members.get(b.name) if members is not None and b.name is not None else None


def _takes_nzs_in(b: Binding, model_of_tree: Callable[[], NameModel], cls: ast.ClassDef | None) -> bool:
    """A ``vjp_fwd`` bound, whole, to the module's one function of that name (or defined in a
    mixin's body), which already takes ``nzs_in`` beside the class's methods (or the ``type()``
    namespace's functions):
    what HJX002 asks of a ``def vjp_fwd`` (``analysis.fwd_signature``), so right at the target."""
    if b.name != "vjp_fwd":
        return False
    if b.form == DEF and cls is not None:  # a mixin's own ``def`` (on a primitive, HJX002's to decide)
        return lacks_nzs_in(methods(cls).get("vjp_fwd"), methods(cls)) is False
    members = _members(b.namespace) if b.form == FACTORY else None
    value = bound_value(b) if b.form == FACTORY or b.form in _WHOLE and cls is not None else None
    model = model_of_tree() if isinstance(value, ast.Name) else None
    func = model.module_function(value.id) if model is not None else None
    if func is None:
        return False
    beside = methods(cls) if members is None else _functions(members, model)
    return lacks_nzs_in(func, {**beside, "vjp_fwd": func}) is False


def _functions(members: dict[str, ast.expr], model: NameModel) -> dict[str, ast.FunctionDef]:
    """The members that are the module's one function of their name."""
    found = {key: model.module_function(v.id) for key, v in members.items() if isinstance(v, ast.Name)}
    return {key: func for key, func in found.items() if func is not None}


def _members(namespace: ast.expr | None) -> dict[str, ast.expr] | None:
    """A ``type()`` namespace's members, where each key is written out (None: not all are)."""
    if not isinstance(namespace, ast.Dict):
        return None
    keys = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in namespace.keys]
    return None if None in keys else dict(zip(keys, namespace.values))


def wrapped_by_name(b: Binding, classes: list[ast.ClassDef], index: int) -> bool:
    """``setattr(cls, "vjp_bwd", ...)`` in a class decorator or a base's ``__init_subclass__``
    (a wrapper of the rule the class defines), where a class it reaches defines a value
    ``def vjp_bwd``: HJX001 migrates that rule, and its references by name with it (the
    string renamed where proven, else the family refused), so the binding is decided there."""
    if b.name != "vjp_bwd" or b.via != SETATTR or b.form not in (DECORATOR, INIT_SUBCLASS):
        return False
    owner = classes[index].name
    reached = [c for c in classes if c is classes[index] or any(_named(base) == owner for base in c.bases)]
    return any(_value_def(stmt) for c in reached for stmt in c.body)


def _named(expr: ast.expr) -> str | None:
    return expr.id if isinstance(expr, ast.Name) else None


def _value_def(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.FunctionDef) and stmt.name == "vjp_bwd" and rule_form(stmt) == CLASSIC


def rebound(bindings: list[Binding], decided: Mapping[str, frozenset[str]]) -> dict[str, list[Binding]]:
    """Names of rules the body binds more than once but by repeated definitions (a ``def`` and an
    assignment, two assignments, a ``def`` at the top and one in a block): which binding is the rule then
    depends on their order, and each rule follows one form at a time. Repeated definitions
    (Python keeps the last) and definitions in the arms of a block are the rules' to decide."""
    found: dict[str, list[Binding]] = {}
    for b in bindings:
        if b.name in decided and b.form not in _ALONE:
            found.setdefault(b.name, []).append(b)
    return {name: bs for name, bs in found.items() if len(bs) > 1 and {b.key for b in bs} not in _REPEATABLE}


def jax_names(tree: ast.Module) -> set[str]:
    """The names the module's own statements import from jax (``import jax``,
    ``from jax.experimental import hijax as hjx``, ``from jax._src.hijax import vjp_from_jvp``)."""
    found = set()
    for stmt in statements(tree):  # imports are statements: the expressions, most nodes, are not walked
        if isinstance(stmt, ast.Import):
            found |= {a.asname or a.name.partition(".")[0] for a in stmt.names if _from_jax(a.name)}
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and _from_jax(stmt.module or ""):
            found |= {a.asname or a.name for a in stmt.names}
    return found


def module_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _from_jax(module: str) -> bool:
    return module == "jax" or module.startswith("jax.")


def _root(value: ast.expr | None) -> str | None:
    """The name an attribute chain starts from (``hjx.vjp_from_jvp``: ``hjx``)."""
    while isinstance(value, ast.Attribute):
        value = value.value
    return value.id if isinstance(value, ast.Name) else None
