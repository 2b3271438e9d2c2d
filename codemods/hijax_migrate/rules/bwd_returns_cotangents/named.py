"""HJX001: a reference by name that follows the rename of the rules it reaches.

``cls.__dict__.get("vjp_bwd")`` in a base's ``__init_subclass__``, ``vars(cls)["vjp_bwd"]``
in a class decorator, ``setattr(cls, "vjp_bwd", wrapped)``: after a rename the string
names jax's rule, or nothing, and a wrapper of the rule (clipping cotangents) silently
stops wrapping it. Such a reference is proven, and its string becomes
``"vjp_bwd_retval"``, only where all of these hold:

- its key is one string literal, ``"vjp_bwd"``, and it reads an attribute (``getattr``,
  ``hasattr``) or the class's own namespace (``__dict__``, ``vars()``), or sets, with
  ``setattr``, a value rule (a ``def`` of the function it stands in, returning cotangents:
  a wrapper that made an accumulator rule of the old one would not follow);
- its object is ``cls``/``self`` in a method of a class of this file (the class and its
  subclasses; a base's ``__init_subclass__``: its subclasses only), a class of this file
  named, or the parameter of a function this file applies as a class decorator;
- every class it may be is in this file, and the rule the lookup finds there (its own
  namespace's, or its order's first) is a plain value ``def vjp_bwd`` renamed in this
  run, in the same way (``--strategy accum`` renames them too, and says why); a
  namespace with neither rule may be read too (it finds nothing before and after);
- the function it stands in names ``.vjp_bwd`` nowhere (``cls.vjp_bwd = wrapped`` would
  not follow), and no other reference (here or in another file) blocks those classes.

Else the classes it may reach are refused (``AccumulatorWrites.by_name``).
"""

from __future__ import annotations

import ast

import libcst as cst

from ...analysis.ast_summary import rule_form as ast_rule_form
from ...analysis.families import Classes, ancestors, descendants, first_definer
from ...analysis.name_refs import GET, NAMESPACE, SET
from ...analysis.nodes import findall, is_name
from ...analysis.reach import NamedUse, classic_family
from ...analysis.scopes import ClassInfo
from ...analysis.shape import class_shape, conditional_defs, is_static
from ...analysis.sites import NAME, SELF
from ...analysis.summary import CLASSIC
from ..context import ERROR
from .planning import RuleInputs

RULE, NEW = "vjp_bwd", "vjp_bwd_retval"


class NamedPlanner:
    """The references by name of one file that follow the rename (see the module's docstring)."""

    def __init__(self, inputs: RuleInputs, steps, families):
        self.prims, self.project, self.options = inputs.prims, inputs.project, inputs.options
        self.steps, self.families = steps, families
        self._followed: dict[int, tuple[NamedUse, list[ClassInfo]]] | None = None

    def follows(self, named: NamedUse) -> bool:
        return id(named.ref) in self.followed()

    def reached_by(self, info: ClassInfo) -> NamedUse | None:
        """A followed reference whose rename ``info``'s rule takes part in: one reaching a
        class of its family (one strategy gives them all one form)."""
        family = {c.key for c in classic_family(self.project, info)}
        return next((n for n, classes in self.followed().values() if any(c.key in family for c in classes)), None)

    def followed(self) -> dict[int, tuple[NamedUse, list[ClassInfo]]]:
        """id of each followed reference -> it, and the classes whose rule it reaches."""
        if self._followed is None:
            self._followed = {}  # while worked out, ``by_name`` (asked below) follows none but these
            found = {}
            for named in self.steps.named_here():
                classes = self._reached(named)
                if classes:
                    found[id(named.ref)] = (named, classes)
            self._followed = found
            while any(self._blocked(classes) for _, classes in found.values()):  # until none blocks another
                found = {k: (n, c) for k, (n, c) in found.items() if not self._blocked(c)}
                self._followed = found
        return self._followed

    def _blocked(self, classes: list[ClassInfo]) -> bool:
        return any(self.steps.by_name(self._node(info)) is not None for info in classes)

    def _reached(self, named: NamedUse) -> list[ClassInfo] | None:
        ref = named.ref
        if ref.literal is None or ref.names != {RULE} or ref.kind not in (GET, SET, NAMESPACE):
            return None
        if len(named.uses) != len(ref.sites) or self._names_attribute(ref.function):
            return None
        if (ref.literal.lineno, ref.literal.col_offset) not in self._strings():  # one plain string, to rename
            return None
        if ref.kind == SET and not self._sets_value_rule(ref):
            return None
        mine = {info.key for info in self.prims.infos.values()}
        found: dict = {}
        for use in named.uses:
            for cls in self._objects(use, ref.method) or [None]:
                rule = self._rule(cls, ref.kind, mine) if cls is not None else False
                if rule is False:
                    return None
                if rule is not None:
                    found[rule.key] = rule
        return list(found.values()) or None

    def _objects(self, use, method: str | None) -> list[ClassInfo] | None:
        """The classes the reference's object may be, all of this file; None: not known."""
        if use.site.how == NAME:
            classes = list(use.owners)
        elif use.site.how == SELF and len(use.owners) == 1:
            owner = use.owners[0]
            below = descendants(self.project, owner, Classes(self.prims.infos.values()))
            classes = below if method == "__init_subclass__" else [owner, *below]
        else:
            return None
        mine = {info.key for info in self.prims.infos.values()}
        return classes if classes and all(c.key in mine for c in classes) else None

    def _rule(self, cls: ClassInfo, kind: str, mine: set) -> ClassInfo | None | bool:
        """The class whose renamed rule the lookup finds on ``cls`` (None: none, before or
        after; False: one that is not renamed here, or jax's own)."""
        if kind == NAMESPACE:
            own = cls.body.bindings if cls.body is not None else {}
            if RULE not in own:
                return None if NEW not in own else False
            definer = cls
        else:
            order = [cls, *ancestors(self.project, cls)]
            definer = first_definer(order, RULE)
            if definer is None or first_definer(order, NEW) is not None:
                return False
        return definer if definer.key in mine and self._renamable(definer) else False

    def _renamable(self, info: ClassInfo) -> bool:
        """Is ``info``'s rule a plain value ``def`` that nothing but a reference by name keeps from a rename?"""
        cls = self._node(info)
        kind = self.prims.kinds.get(cls)
        chosen = self.options.classes
        if kind is None or not kind.is_primitive or (chosen is not None and info.qualname not in chosen):
            return False
        shape = class_shape(cls, self.prims.bridge)
        func = shape.methods.get(RULE)
        defs = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == RULE]
        return (
            func is not None
            and len(defs) == 1
            and not func.decorators
            and not is_static(func)
            and not shape.has_sres
            and ast_rule_form(self.prims.bridge.ast_of(func)) == CLASSIC
            and RULE not in conditional_defs(cls, self.prims.bridge)
            and not {RULE, NEW} & {*shape.attributes}
            and NEW not in shape.methods
            and not any(findall(s, cst.Name, lambda n: is_name(n, RULE)) for s in cls.body.body if s is not func)
            and self.families.conflict(info) is None
        )

    def _node(self, info: ClassInfo) -> cst.ClassDef:
        return next(cls for cls, mine in self.prims.infos.items() if mine.key == info.key)

    def _sets_value_rule(self, ref) -> bool:
        """Does ``setattr`` set a value rule (a ``def`` of the function it stands in, that returns
        cotangents)? Another value (an accumulator rule made of the old one) would not follow."""
        tree, span = self._tree(), ref.function
        if tree is None or span is None or not isinstance(ref.value, ast.Name):
            return False
        defs = [
            node
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == ref.value.id
            and span[0] < node.lineno <= span[1]
        ]
        return len(defs) == 1 and ast_rule_form(defs[0]) == CLASSIC

    def _names_attribute(self, span: tuple[int, int] | None) -> bool:
        """Does the function (lines ``span``; None: the module) name ``.vjp_bwd`` anywhere?"""
        tree = self._tree()
        return tree is None or any(
            isinstance(node, ast.Attribute)
            and node.attr == RULE
            and (span is None or span[0] <= node.lineno <= span[1])
            for node in ast.walk(tree)
        )

    def _strings(self) -> dict[tuple, cst.SimpleString]:
        if not hasattr(self, "_simple"):
            self._simple = _strings_naming(self._tree(), self.prims.wrapper.module) or {}
        return self._simple

    def _tree(self) -> ast.Module | None:
        if not hasattr(self, "_ast"):
            code = self.prims.code if self.prims.code is not None else self.prims.wrapper.module.code
            try:
                self._ast = ast.parse(code)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._ast = None
        return self._ast

    # -- the rewrite
    def literals(self, renamed: set) -> set[cst.SimpleString]:
        """The strings to rename: those of each followed reference whose classes were all
        renamed (``renamed``: their keys); any other is said, as an error, where it stands."""
        strings = self._strings()
        found = set()
        for named, classes in self.followed().values():
            literal = named.ref.literal
            node = strings.get((literal.lineno, literal.col_offset))
            if node is not None and all(c.key in renamed for c in classes):
                found.add(node)
                self.steps.changed(named.ref.line, None, f'`"{RULE}"` renamed `"{NEW}"` with the rules it reaches')
                continue
            self.steps.skipped(
                named.ref.line,
                None,
                f"`{named.ref.form}` reaches the rules of {', '.join(c.qualname for c in classes)}, "
                "not all renamed: port it and them by hand",
                ERROR,
            )
        return found


def _strings_naming(tree: ast.Module | None, module: cst.Module) -> dict[tuple, cst.SimpleString] | None:
    """Where each ``ast`` string constant ``"vjp_bwd"`` starts -> libcst's string, paired in source
    order (None where the two trees do not list the same strings: nothing is renamed)."""
    if tree is None:
        return None
    inside = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    ours = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value == RULE and id(n) not in inside),
        key=lambda n: (n.lineno, n.col_offset),
    )
    parts = {id(p) for c in findall(module, cst.ConcatenatedString) for p in (c.left, c.right)}
    theirs = [
        s
        for s in findall(module, (cst.SimpleString, cst.ConcatenatedString))
        if id(s) not in parts and s.evaluated_value == RULE
    ]
    if len(ours) != len(theirs):
        return None
    return {(a.lineno, a.col_offset): b for a, b in zip(ours, theirs) if isinstance(b, cst.SimpleString)}
