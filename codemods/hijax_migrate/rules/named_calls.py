"""Calls of a rule through a class's name (``Op.dce(op, used_outs)``, ``Op.vjp_fwd(op, x)``),
for a rule that changes that rule's signature: such a call, outside the class's own body
(in this file) or anywhere in another file of the tree, would miss the new parameter, and
no rewrite of the class changes it. A ``self.``/``super()`` access in a subclass is its
family's (decided where that class is)."""

from __future__ import annotations

from ..analysis.ast_summary import parse_ast
from ..analysis.reach import file_named_uses, file_uses, reaches, reaches_by_name, tree_named_uses, tree_uses
from ..analysis.scopes import ModuleSummary, Scope
from ..analysis.sites import NAME
from .rule_sight import rule_arity


def named_call(rule, info, func, attr: str, here: bool = True, delegations: bool = False) -> str | None:
    """Where the first such call of ``info``'s rule ``func`` (a libcst def) stands; None: none.
    ``here``: this file's calls too (besides those in the class's body, a rule's own to judge);
    ``delegations``: calls inside a function of the rule's own name are the family's (a
    subclass's ``dce`` delegating ``Base.dce(self, used_outs)``, which its rewrite passes on).
    A reference by name (``getattr(Op, "dce")``) is such a call too."""
    if info is None or rule.project is None:
        return None
    arity = rule_arity(rule.prims.bridge.ast_of(func))
    parsed = _parsed(rule) if here else None
    uses = _fact(rule, f"uses of {attr}", lambda: file_uses(rule.project, *parsed, attr, "")) if parsed else []
    for use in uses + tree_uses(rule.project, attr, rule.report.file):
        site = use.site
        if site.how != NAME or site.cls == info.qualname or (delegations and site.function == attr):
            continue
        if reaches(rule.project, use, info, attr, arity):
            return use.where
    return _by_name(rule, info, attr, parsed)


def _by_name(rule, info, attr: str, parsed) -> str | None:
    """The first reference by name reaching the rule, outside the class's body (``name_refs``)."""
    named = _named_here(rule, parsed) if parsed else []
    for found in named + tree_named_uses(rule.project, [info], rule.report.file, {}):
        if any(site.cls == info.qualname for site in found.ref.sites):
            continue
        if reaches_by_name(rule.project, found, info, attr):
            return found.where
    return None


def _named_here(rule, parsed: tuple) -> list:
    """This file's references by name (``reach.file_named_uses``)."""
    return _fact(rule, "named uses", lambda: file_named_uses(rule.project, *parsed, rule.prims.code, ""))


def _fact(rule, name: str, make) -> list:
    """``make()``, found once for the tree the rule's run holds: HJX002 and HJX010 ask for
    each class, and each answer is a walk of the whole module."""
    facts = rule.prims.facts
    if name not in facts:
        facts[name] = make()
    return facts[name]


def _parsed(rule) -> tuple | None:
    """(tree, summary) of the file, as the rules hold it; None where ``ast`` cannot read it
    (newer syntax than this Python's: libcst's own walk of the file judges it)."""
    code = rule.prims.code
    try:
        tree = parse_ast(code) if code is not None else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if tree is None:
        return None
    return tree, ModuleSummary.of(rule.prims.module_scope or Scope(None), list(rule.prims.infos.values()))
