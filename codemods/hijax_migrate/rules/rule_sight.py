"""What a rule's decision reads of its file and of the tree, from ``ast`` alone: the
``Sight`` the rewrite builds from its file's view and triage from its own parse, so
that one decision (``bwd_returns_cotangents/half_ported.py``) serves both.

It answers which uses of ``.vjp_bwd`` may reach a rule (``reaching``, by the rule's
arity), where a rule is reached by a name (``reached_by_name``), and which function a
call in a rule reaches (``resolver``): ``self.name(...)``, a plain method of the class or
of a base in this file that no subclass overrides; ``name(...)``, the one ``def`` of the
module binding it. Beside: Python's own names (``builtin_of``), ``jax.tree.map``
(``tree_map_of``), a ``finally``'s line (``finally_line``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain

from ..analysis import class_body
from ..analysis.accum_uses import defaulted
from ..analysis.ast_summary import full_name
from ..analysis.families import Classes, defining, descendants
from ..analysis.function_names import module_function
from ..analysis.helpers import self_name
from ..analysis.names import NameModel, sure_names
from ..analysis.reach import (
    Arity,
    NamedUse,
    Use,
    classic_family,
    file_uses,
    reaches,
    reaches_by_name,
    shown_reference,
    tree_named_uses,
)
from ..analysis.scopes import ClassInfo, ModuleSummary
from ..analysis.sites import ROOTED, UNKNOWN, Site


@dataclass
class Sight:
    project: object
    classes: dict[ast.ClassDef, ClassInfo]  # this file's classes the summary knows, by ``ast``'s statement
    kinds: dict[str, ast.ClassDef]  # this file's classes of a kind, by name (what a rule inherits from)
    body: list[ast.stmt]  # the module's statements
    model: Callable[[], NameModel | None]  # the module's name model, its positions those of ``body``
    uses: Callable[[str], list[Use]]  # the uses of ``.attr``, this file's then the tree's
    target: tuple
    builtin: Callable[[str], bool]  # is a name Python's own everywhere in the file
    is_tree_map: Callable[[ast.expr], bool]  # ``jax.tree.map``, as the name model is sure
    line: Callable[[ast.AST], int]  # the line to name, in the file as it is (a ``try``'s: its ``finally``'s)
    file: str  # the file's path, as findings name it
    named_here: Callable[[], list[NamedUse]]  # this file's references by name (``analysis.name_refs``)
    named_files: dict = field(default_factory=dict)  # each other file's references by name, found once


def rule_arity(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Arity:
    """The arguments ``func`` binds after ``self``: a call of any other count cannot reach it."""
    positional = defaulted(func)[1:]
    least = sum(not default for _, default in positional)
    return Arity(least, None if func.args.vararg is not None else len(positional))


def reaching(sight: Sight, info: ClassInfo | None, func, attr: str = "vjp_bwd") -> list[Use]:
    """The uses of ``.attr`` that can reach the rule ``func`` of the class ``info``
    (None: a class the summary does not know, which every use may reach), in order."""
    if info is None:
        return [Use(use.where, Site(use.site.line, UNKNOWN, None)) for use in sight.uses(attr)]
    arity = rule_arity(func)
    return [use for use in sight.uses(attr) if reaches(sight.project, use, info, attr, arity)]


def resolver(sight: Sight, info: ClassInfo | None):
    """``resolve(call, caller)``: the helper a call in the rule of ``info``'s class reaches and
    how many parameters the call binds itself, or why it is not known (``helpers.Helpers``)."""

    def resolve(call: ast.Call, caller: ast.FunctionDef):
        func = call.func
        on_self = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        if on_self and func.value.id == self_name(caller):
            return _method(sight, info, func.attr)
        if isinstance(func, ast.Name):
            return _module_function(sight, func)
        return f"`{ast.unparse(func)}` is not a method of the class nor a function of this module"

    return resolve


def _method(sight: Sight, info: ClassInfo | None, name: str):
    found = defining(sight.project, info, name) if info is not None else None
    if found is None or len(found[1]) != 1:
        return f"`self.{name}` is not defined once in the class or its bases in the tree"
    owner = next((node for node, i in sight.classes.items() if i.key == found[0].key), None)
    func = class_body.methods(owner).get(name) if owner is not None else None
    if func is None or func.decorator_list or isinstance(func, ast.AsyncFunctionDef):
        return f"`self.{name}` is not a plain method of a class in this file"
    for sub in descendants(sight.project, info, Classes(sight.classes.values())):
        if sub.body is not None and name in sub.body.bindings:
            return f"`self.{name}` is overridden in the subclass {sub.qualname}"
    return func, 1


def _module_function(sight: Sight, read: ast.Name):
    model, name = sight.model(), read.id
    func = module_function(model, sight.body, read) if model is not None else "none"
    if func == "local":
        return f"`{name}` is bound inside a function"
    if isinstance(func, str):
        return f"`{name}` is not a function defined once in this module"
    if func.decorator_list or isinstance(func, ast.AsyncFunctionDef):
        return f"`{name}` is decorated or async"
    return func, 0


def file_rule_uses(project, tree: ast.Module, summary: ModuleSummary, attr: str, origin=None) -> list[Use]:
    """The uses of ``.attr`` in this file (``tree``), named by their lines in the file as it is."""
    origin = origin or (lambda line: line)
    found = file_uses(project, tree, summary, attr, "")
    return [Use(f"line {origin(use.site.line)}", use.site, use.owners) for use in found]


def reached_by_name(sight: Sight, info: ClassInfo | None, word: str, attr: str = "vjp_bwd", follows=None) -> str | None:
    """Where and how ``attr`` of the family of ``info`` (None: a class the summary does not
    know; ``word``: its name) may be reached by a name (``getattr(cls, NAME)``,
    ``vars(cls)["vjp_bwd"]``, a name not known before the code runs: ``analysis.name_refs``),
    or on a class picked from a hierarchy when the code runs (``type(self).__mro__[1].vjp_bwd``:
    ``sites.ROOTED``), here or in another file of the tree: what follows "reached" in a
    finding. No rename or new signature would follow such a reference; ``follows(named)``:
    does the migration rewrite that reference with the rules it reaches?"""
    family = classic_family(sight.project, info) if info is not None else []
    for named in _named_reaching(sight, family, attr, info is None, follows or (lambda named: False)):
        return f"by name at {shown_reference(named)}"
    rooted = next((use for use in sight.uses(attr) if _rooted_reaching(sight.project, use, family, attr)), None)
    if rooted is not None:
        return (
            f"at {rooted.where} through `{rooted.site.form}`, on a class picked from "
            f"{'the instance' if rooted.site.name is None else f'`{rooted.site.name}`'}'s hierarchy "
            "when the code runs"
        )
    found = sight.project.use_elsewhere(attr, sight.file, by_name=True, naming=word)
    return f"by name at {found[0]}:{found[1]} (a getter given the name)" if found else None


def _named_reaching(sight: Sight, family: list[ClassInfo], attr: str, unknown: bool, follows):
    """The references by name that may reach the rule of a class of ``family`` (``unknown``:
    a class the summary does not know, which any may reach), this file's first."""
    elsewhere = tree_named_uses(sight.project, family, sight.file, sight.named_files) if family else ()
    for named in chain(sight.named_here(), elsewhere):
        if follows(named):
            continue
        if any(reaches_by_name(sight.project, named, member, attr) for member in family) or (
            unknown and (named.ref.names is None or attr in named.ref.names)
        ):
            yield named


def _rooted_reaching(project, use: Use, family: list[ClassInfo], attr: str) -> bool:
    """Is ``use`` on a class picked when the code runs (``sites.ROOTED``), that may be a class
    of ``family`` or find its rule? No rename follows it: which rule it calls is not known."""
    return use.site.how == ROOTED and any(reaches(project, use, member, attr, Arity(0, None)) for member in family)


TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map"})
TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def builtin_of(model: NameModel | None) -> Callable[[str], bool]:
    """Is a name Python's own everywhere in the module: no scope of it binds the name."""

    def builtin(name: str) -> bool:
        return model is not None and not model.stars and name not in model.bindings and name not in model.declared

    return builtin


def tree_map_of(model: NameModel | None) -> Callable[[ast.expr], bool]:
    """Is an expression ``jax.tree.map`` or ``jax.tree_util.tree_map``, as the name model is sure?"""

    def is_tree_map(func: ast.expr) -> bool:
        found = sure_names(model, full_name(func))  # jax's, imported: never a name the module binds itself
        return found is not None and found[0] == "import" and bool(found[1]) and found[1] <= TREE_MAPS

    return is_tree_map


def finally_line(stmt: ast.Try, lines: list[str]) -> int:
    """The line of a ``try``'s ``finally`` keyword in ``lines`` (the text ``ast`` read): it
    starts a line between the block before it and the first statement of its own."""
    before = stmt.orelse or stmt.handlers or stmt.body
    last = before[-1].end_lineno
    first = stmt.finalbody[0].lineno
    return next((n for n in range(first, last, -1) if _FINALLY.match(lines[n - 1])), first)


_FINALLY = re.compile(r"\s*finally\s*:")
