"""HJX016: bindings of API names in forms no rule follows, reported (nothing is rewritten)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

import libcst as cst

from ...analysis.ast_summary import class_statements, dotted_name
from ...analysis.namespace import DEF, IN_BLOCK, Binding, body_bindings
from ...analysis.namespace_after import outside_bindings
from ...analysis.probes import base_bound_at_run
from ...analysis.scopes import Kind, defines_rules, strongest
from ...analysis.summary import ast_of
from ..context import RuleTransformer
from ..gates import dead_arms, version_leaf
from . import RULE
from .accounts import rebound, unaccounted, wrapped_by_name

_RULES = ("vjp_fwd", "vjp_bwd", "vjp_bwd_retval")  # as ``scopes.defines_rules`` asks of a summary
_DEFS = frozenset({DEF, DEF + IN_BLOCK})  # the forms of ``vjp_bwd`` decided on a class that is no primitive
_LEFT = "whether it works at the target cannot be decided; the file is left as it is: port it by hand"
_WHY = f"no rule of the tool follows that form, so {_LEFT}"


class UnmodelledBindings(RuleTransformer):
    rule = RULE

    def visit_Module(self, node: cst.Module) -> bool:
        if not self.context.binds:
            return False
        tree, text = ast_of(node, self.prims.code if self.prims.code is not None else node.code)
        self._lines = text.splitlines()
        classes, statements = list(self.prims.kinds), class_statements(tree)
        if len(classes) != len(statements):
            return False  # not the same classes: nothing is claimed (the output checks name such bugs)
        bodies = [body_bindings(stmt) for stmt in statements]
        may = [self._may_be_primitive(cls, bindings) for cls, bindings in zip(classes, bodies)]
        for cls, bindings, maybe, stmt in zip(classes, bodies, may, statements):
            if maybe:
                self._in_body(cls, bindings, tree, stmt, self._decided(cls))
        for index, binding in outside_bindings(tree, statements):
            if index is not None and wrapped_by_name(binding, statements, index):
                continue  # HJX001 follows the reference by name, or refuses the family (analysis.name_refs)
            if binding.on is not None:
                maybe = self._names_primitive(binding.on)
            else:
                maybe = may[index] if index is not None else self._bases_may_be(binding.value, any(may))
            if maybe and unaccounted([binding], self.context.binds, tree, outside=True):
                self._report(classes[index] if index is not None else None, binding)
        return False

    def _in_body(
        self, cls: cst.ClassDef, bindings: list[Binding], tree: ast.Module, stmt: ast.ClassDef, decided: Mapping
    ) -> None:
        """Each binding of the body no rule accounts for; each name bound again in another form.
        An arm of a version gate no release of the target's line runs binds nothing there."""
        dead = dead_arms(stmt.body, cls.body, self.options.target, lambda expr: version_leaf(self, expr))
        bindings = [b for b in bindings if not any(first <= b.line <= last for first, last in dead)]
        open_ = unaccounted(bindings, decided, tree)
        for binding in open_:
            self._report(cls, binding)
        for name, again in rebound(bindings, decided).items():
            if not any(b.name == name for b in open_):
                self._again(cls, name, again)

    def _may_be_primitive(self, cls: cst.ClassDef, bindings: list[Binding]) -> bool:
        """A primitive, or undecided (a base from outside the tree, or one picked when the code
        runs) with a hijax rule bound in its body, in any form."""
        kind, info = self.prims.kinds[cls], self.prims.infos.get(cls)
        if kind.is_primitive:
            return True
        if info is None or not (defines_rules(info) or any(b.name in _RULES for b in bindings)):
            return False
        return kind is Kind.EXTERNAL or base_bound_at_run(kind, info, self.project) is not None

    def _decided(self, cls: cst.ClassDef) -> Mapping:
        """The forms the rules decide on ``cls``. On a class that is no primitive to them (its base
        picked when the code runs) no rule migrates a rule bound by an assignment: only a ``def``
        of ``vjp_bwd`` is decided there (reported by HJX001 and the engine where it returns
        cotangents, ``probes.value_rule``); every other form is this rule's error."""
        if not self._at_run(cls):
            return self.context.binds
        return {**self.context.binds, "vjp_bwd": self.context.binds.get("vjp_bwd", frozenset()) & _DEFS}

    def _at_run(self, cls: cst.ClassDef) -> bool:
        """No primitive to the rules, but its base, or a base of a class of the tree it derives
        from, is picked when the code runs (a call, ``BASES[0]``, a probe, arms that disagree)."""
        kind, info = self.prims.kinds[cls], self.prims.infos.get(cls)
        if kind.is_primitive or info is None or self.project is None:
            return False
        undecided = kind is Kind.EXTERNAL and self.project.undecided_base(info) is not None
        return undecided or base_bound_at_run(kind, info, self.project) is not None

    def _names_primitive(self, dotted: str) -> bool:
        """Does ``dotted`` name a class of the tree (another module's, or an alias) that is or may be a primitive?"""
        if self.prims.module_scope is None:
            return False
        infos = self.project.classes_of_name(self.prims.module_scope, dotted)
        kinds = [self.project.class_kind(info) for info in infos]
        return any(k.is_primitive or k is Kind.EXTERNAL and defines_rules(i) for k, i in zip(kinds, infos))

    def _bases_may_be(self, bases: ast.expr | None, unreadable: bool) -> bool:
        """Bases of a class made by a call: may it be a primitive? ``unreadable``: the answer
        where they cannot be read."""
        if not isinstance(bases, ast.Tuple) or self.prims.module_scope is None:
            return unreadable
        names = [dotted_name(element) for element in bases.elts]
        if None in names or self.project.bound_at_run("", self.prims.module_scope, names) is not None:
            return True  # a base picked when the code runs (a call, ``BASES[0]``): it may be a primitive
        kind = strongest(self.project.kind_of_name(self.prims.module_scope, name) for name in names)
        return kind.is_primitive or kind is Kind.EXTERNAL and unreadable

    def _report(self, cls: cst.ClassDef | None, binding: Binding) -> None:
        shown = self._lines[binding.line - 1].strip() if binding.line <= len(self._lines) else ""
        shown = shown if len(shown) <= 70 else shown[:67] + "..."
        what = f"`{binding.name}`" if binding.name else "a name not written out (it may be a hijax rule)"
        where = f"`{binding.on}` (a class of the tree): " if binding.on else ""
        where = where or ("" if cls is not None else "a class made by a call: ")
        self.skipped(
            self.prims.file_line(binding.line),
            cls,
            f"{where}{what} is bound by {binding.described()} (`{shown}`): {_WHY}",
        )

    def _again(self, cls: cst.ClassDef, name: str, bindings: list[Binding]) -> None:
        lines = ", ".join(str(self.prims.file_line(b.line)) for b in bindings)
        forms = ", ".join(dict.fromkeys(b.described() for b in bindings))
        self.skipped(
            self.prims.file_line(bindings[-1].line),
            cls,
            f"`{name}` is bound {len(bindings)} times in the class body, by {forms} (lines {lines}): "
            f"which binding is the rule depends on their order, and a rule follows one at a time, so {_LEFT}",
        )
