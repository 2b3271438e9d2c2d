"""HJX001: a ``vjp_bwd`` that returns cotangents instead of accumulating them."""

from __future__ import annotations

import ast

from ...analysis.line_walk import over_lines, word_lines
from ...analysis.namespace import (
    ASSIGN,
    CHAINED,
    DEF,
    FACTORY,
    FOR,
    IMPORT,
    IN_BLOCK,
    ON_BASE,
    UNPACKING,
    WALRUS,
    body_bindings,
)
from ...analysis.returns import own_returns, returns_values
from ...analysis.scopes import CLASSIC, PRIMITIVE_KINDS, ClassInfo, Kind, Scope
from ...tree.calls import may_use
from ..ast_tests import assigned, in_blocks, methods
from ..base import Rule


def returns_cotangents(node: ast.ClassDef, kind: Kind) -> bool:
    """A ``vjp_bwd`` returning values, or one bound in the body or defined in a block; or
    returning a dict (logs, which a target before jax 0.11.1 has not: the rule decides)."""
    rule = methods(node).get("vjp_bwd")
    # a target binding, on any class: on one whose base is bound when the code runs, it is an error
    return (
        kind is not Kind.NONE
        and (returns_values(rule) or "vjp_bwd" in assigned(node) | in_blocks(node) or _returns_a_dict(rule))
        or any(b.name == "vjp_bwd" and b.form in _TARGETS for b in body_bindings(node))
    )


_TARGETS = frozenset({CHAINED, UNPACKING, WALRUS, FOR, IMPORT})  # as ``targets.FORMS``: proven, or refused there


def _returns_a_dict(func: ast.FunctionDef | None) -> bool:
    return func is not None and any(isinstance(r.value, (ast.Dict, ast.DictComp, ast.Call)) for r in own_returns(func))


def through_family(code: str, tree: ast.Module, classes: list, scope: Scope, project) -> bool:
    """A mixin's value rule, renamed where it is defined, or a call that follows
    a rule renamed in another file."""
    if "vjp_bwd" not in code:
        return False
    from ...analysis.families import Classes

    here = Classes(info for _, _, info in classes)  # who inherits from whom, worked out once
    if any(kind is Kind.NONE and _feeds_primitives(info, here, project) for _, kind, info in classes):
        return True
    return may_use(code, "vjp_bwd") and _calls_classic_rule(code, tree, classes, scope, project)


def _feeds_primitives(info: ClassInfo, here: list[ClassInfo], project) -> bool:
    from ...analysis.families import descendants, form

    return form(info) == CLASSIC and any(
        project.class_kind(sub).is_primitive for sub in descendants(project, info, here)
    )


def _calls_classic_rule(code: str, tree: ast.Module, classes: list, scope: Scope, project) -> bool:
    """A ``.vjp_bwd`` access in a class whose family defines it in the classic form
    (or outside any class, ``Cls.vjp_bwd`` naming one)."""
    from ...analysis.families import ancestors, first_definer, form

    lines = word_lines(code, ("vjp_bwd",))  # an access stands over a line naming it: walk only those
    accesses = {
        id(sub): sub for sub in over_lines(tree, lines) if isinstance(sub, ast.Attribute) and sub.attr == "vjp_bwd"
    }
    inside = set()
    for node, _, info in classes:  # each class walked once, over those lines
        mine = accesses.keys() & {id(sub) for sub in over_lines(node, lines)}
        inside |= mine
        if mine:
            definer = first_definer([info, *ancestors(project, info)], "vjp_bwd")
            if definer is not None and form(definer) == CLASSIC:
                return True
    return any(_names_classic_class(access, scope, project) for key, access in accesses.items() if key not in inside)


def _names_classic_class(access: ast.Attribute, scope: Scope, project) -> bool:
    """As ``plans._resolve`` outside any class: ``Cls.vjp_bwd`` for the one
    class of the tree ``Cls`` names in the module, whose family defines it in
    the classic form (an access on any other object is another protocol)."""
    from ...analysis.families import ancestors, first_definer, form

    if not isinstance(access.value, ast.Name):
        return False
    found = project.classes_of_name(scope, access.value.id)
    if len(found) != 1:
        return False
    definer = first_definer([found[0], *ancestors(project, found[0])], "vjp_bwd")
    return definer is not None and form(definer) == CLASSIC


RULE = Rule(
    "HJX001",
    "bwd-returns-cotangents",
    (0, 8, 1),
    "A `vjp_bwd` that returns cotangents: renamed to `vjp_bwd_retval`, or its "
    "returns turned into accumulator writes followed by `return None`.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
    needs=("vjp_bwd",),
    # the external ones get a warning; plain classes may be mixins of primitives elsewhere
    kinds=PRIMITIVE_KINDS | {Kind.EXTERNAL, Kind.NONE},
    # the forms it decides; on a mixin, a value ``def`` (its family's: ``analysis.reach.classic_family``)
    binds={"vjp_bwd": frozenset({DEF, DEF + IN_BLOCK, ASSIGN, FACTORY, *_TARGETS, DEF + ON_BASE})},
    rewrite=f"{__name__}.rewrite:BwdReturnsCotangents",
    class_test=returns_cotangents,
    family_test=through_family,
)
