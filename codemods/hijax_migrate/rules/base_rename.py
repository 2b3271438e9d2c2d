"""Renaming a hijax base class everywhere a file names it.

Reads resolve as Python binds names (``analysis/resolution.py``, over the name
model), so aliases and module imports are followed and look-alike names
elsewhere are never touched. An import is renamed with every use of it or
aliased (``bindings``), wherever it stands: in ``try``, under ``if``, in
functions. Code that already chooses between the two names (an ``A if v else
B``, an ``if`` whose branches or a ``try`` whose body and ``except ImportError``
each name one, a ``getattr(...) or`` fallback) is left as it is: it is correct
on both sides of the switch.
"""

from __future__ import annotations

import ast
import re

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedNameProvider

from ..analysis.ast_summary import parse_ast
from ..analysis.bindings import HIJAX_MODULES, Decision, hijax_from, plan_imports
from ..analysis.cst_blocks import small_statements
from ..analysis.line_walk import over_lines, word_lines
from ..analysis.module_reads import dotted_parts, imported, read_off_elsewhere
from ..analysis.names import NameModel
from ..analysis.nodes import (
    findall,
    in_leave_order,
    in_visit_order,
    is_attribute,
    is_name,
    is_store,
    parents_and_nodes,
)
from ..analysis.qualified import model_of
from ..analysis.rename_reads import (
    ModelReads,
    attribute_names,
    import_lines,
    is_read,
    model_reads,
    paired_lines,
)
from ..analysis.string_reads import may_read_by_string, read_objects
from .edits import Edit, EditingRule

_SWITCH_TYPES = (cst.Try, cst.TryStar, cst.If, cst.IfExp)


class _Sightings:
    """The Names ``old`` and attributes ``.old``, in source order; the statements
    and expressions that may switch between two names and hold a Name ``old``
    (outer first, in the order a visit meets them); every node's parent. One
    walk of the fields finds them all: a libcst visit of a whole module costs
    several times as much, a matcher walk far more."""

    def __init__(self, module: cst.Module, old: str, under: list[cst.CSTNode] | None = None):
        """``under``: the module's statements that may name ``old`` (None: any may)."""
        self.parents, found = parents_and_nodes(module, (cst.Name, cst.Attribute), under)
        self.names: list[cst.Name] = in_visit_order([n for n in found[cst.Name] if n.value == old], self.parents)
        self.attributes: list[cst.Attribute] = in_visit_order(
            [node for node in found[cst.Attribute] if node.attr.value == old], self.parents
        )
        self.found: dict[cst.CSTNode, None] = {}
        for name in self.names:
            self.found.update(dict.fromkeys(reversed(self._switches_above(name))))

    def _switches_above(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The switches ``node`` stands in, innermost first."""
        found = []
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, _SWITCH_TYPES) or (
                isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or)
            ):
                found.append(node)
        return found


_IMPORTS = (ast.Import, ast.ImportFrom)
_DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _bound_at_run(binding) -> str | None:
    """Why a binding of a name leaves its object unknown (None: an import, a class, a function)."""
    if isinstance(binding.statement, _IMPORTS) or isinstance(binding.node, _DEFINITIONS):
        return None
    if isinstance(binding.node, ast.arg):
        return "a function's parameter"
    within = binding.within
    if isinstance(within, (ast.Assign, ast.AnnAssign)) and isinstance(within.value, (ast.Call, ast.Subscript)):
        return "an object the code computes"
    return "a name bound when the code runs"


_ALIASES = 8  # a chain of names bound to names longer than any real one: a cycle of broken code


def _aliased(binding) -> list[str] | None:
    """``m = hijax`` (``m = compat.hijax``): the one target of a module-level assignment of a
    name, or of attributes on one, as dotted parts; None: any other binding."""
    within = binding.within
    if binding.scope.kind != "module" or not isinstance(within, ast.Assign) or len(within.targets) != 1:
        return None
    return dotted_parts(within.value) if isinstance(within.targets[0], ast.Name) else None


def _may_switch(code: str | None, old: str, new: str) -> bool:
    """May the module switch between the names (see ``_is_switch``)? Without
    the new name as a word, only an ``or`` naming the old one is a switch;
    ``ast`` finds those (None, or unreadable: libcst's walk decides)."""
    if code is None or re.search(rf"\b{new}\b", code):
        return True
    try:
        tree = parse_ast(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return any(  # an ``or`` naming ``old`` stands over a line that names it (``line_walk``)
        isinstance(node, ast.BoolOp)
        and isinstance(node.op, ast.Or)
        and any(
            isinstance(sub, ast.Name) and sub.id == old or isinstance(sub, ast.Attribute) and sub.attr == old
            for sub in ast.walk(node)
        )
        for node in over_lines(tree, word_lines(code, (old,)))
    )


# What a name missing from jax raises where it is imported or read as an attribute, and what catches it
_LOOKUP_FAILURES = frozenset({"ImportError", "AttributeError", "Exception", "BaseException"})


def _arms(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The parts of an ``if`` or ``try`` of which one runs instead of another: an ``if``'s
    branches; a ``try``'s body and each handler that catches a missing name (none: no arms)."""
    if isinstance(node, cst.If):
        return [node.body, *filter(None, [node.orelse])]
    handlers = [h for h in node.handlers if _catches_lookups(h)]
    return [node.body, *handlers] if handlers else []


def _catches_lookups(handler: cst.ExceptHandler | cst.ExceptStarHandler) -> bool:
    if handler.type is None:
        return True
    kinds = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = [get_full_name_for_node(kind) for kind in kinds]
    return any(name and name.rpartition(".")[2] in _LOOKUP_FAILURES for name in names)


def _names_old(node: cst.CSTNode, old: str) -> bool:
    return bool(findall(node, (cst.Name, cst.Attribute), lambda n: is_name(n, old) or is_attribute(n, old)))


class BaseRename(EditingRule):
    """Mixin for RuleTransformer subclasses naming ``old_name``/``new_name``: the
    imports, uses and attributes to rename are known before any walk, so the
    rule decides edits (``rules.edits``) instead of transforming every node."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)
    old_name: str
    new_name: str

    def decide(self, module: cst.Module) -> list[Edit]:
        under = self.prims.naming(self.old_name) if self.prims is not None else None
        self._sights = _Sightings(module, self.old_name, under)
        self.parents = self._sights.parents  # every node's, read from the fields: no visit
        self._model, self._lines = self._name_model(), {}
        self._plan(module)
        if self._read_by_strings(module):
            return []  # a rename would leave that read behind: none is made in the file
        targets = set(self._targets())
        self._computed_objects(targets)
        return [Edit(node, self._edit(node), self.rule.code) for node in in_leave_order(targets, self.parents)]

    def _name_model(self) -> NameModel | None:
        """The module's names from ``ast`` (None: no text, or one ``ast`` cannot read)."""
        code = self.prims.code
        if code is None:
            return None
        model = model_of(code)  # the one the rules' names are resolved with, built once a text
        if model is not None:
            return model
        try:
            return NameModel.of(parse_ast(code))  # syntax newer than this Python's, cut by ``parse_ast``
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    def _plan(self, node: cst.Module) -> None:
        self._qualified = {f"{module}.{self.old_name}" for module in HIJAX_MODULES}
        self._switched = self._inside_switches(node)
        reads = self._reads(node)
        self._imports = plan_imports(node, reads, self.old_name, self.new_name, self._switched)
        renamed = self._imports.uses or Decision.RENAME in self._imports.aliases.values()
        if renamed and self._read_elsewhere():
            # another module of the tree imports the old name from this one, or reads it off it: it stays bound
            self._imports = plan_imports(node, reads, self.old_name, self.new_name, self._switched, {self.old_name})
        self._class_attributes(reads)
        for where, why in self._imports.refused:
            self.skipped(self._line(where), None, why)

    def _read_elsewhere(self) -> bool:
        """Does another module of the tree take the old name from this one: an import of it,
        or a read off this module's object (``module_reads``)?"""
        module, path = self.context.full_module_name or "", self.context.filename
        return path is not None and read_off_elsewhere(self.project, module, self.old_name, path)

    def _read_by_strings(self, module: cst.Module) -> bool:
        """Does the file read the old name by a string (``analysis.string_reads``)? Each is an
        error: the name it reads is gone at the target, and the file's rename waits for it."""
        code = self.prims.code if self.prims is not None else module.code
        if not may_read_by_string(code, self.old_name):
            return False
        try:
            reads = read_objects(parse_ast(code), self.old_name)
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # not read: each line that may be one
            reads = [(line, "a string", None) for line in word_lines(code, {self.old_name}) or [1]]
        found = [(line, form) for line, form, obj in reads if not self._another_module(obj)]
        for line, form in found:
            self.skipped(
                line,
                None,
                f"`'{self.old_name}'` reads the name by {form}, and jax's hijax module no longer binds it "
                f"at the target: the rename is left undone in this file; write `'{self.new_name}'` there "
                "(or a name that exists on both sides of a version switch), then run again",
            )
        return bool(found)

    def _another_module(self, obj: ast.expr | None) -> bool:
        """Is ``obj`` (whose namespace a string reads) a module other than jax's hijax modules,
        by its imports (``FileProject.module_through``): a module of the tree keeps the old
        name where another reads it (``module_reads``), one outside the tree is no concern of
        the rename. None (the code's own namespace), or anything else: no."""
        parts = dotted_parts(obj) if obj is not None else None
        if not parts or self._model is None or self.project is None:
            return False
        bindings = self._model.bindings.get(parts[0], ())
        if not bindings or any(not isinstance(b.statement, _IMPORTS) for b in bindings):
            return False
        found = [self.project.module_through([target], parts[1:]) for target in self._import_targets(bindings)]
        return all(module is not None and not module.startswith(HIJAX_MODULES) for module in found)

    def _import_targets(self, bindings) -> list[tuple[str, str]]:
        """``("import", target)`` of each import among ``bindings`` (``module_reads.imported``),
        as ``FileProject.module_through`` takes them."""
        own, package = self.context.full_module_name or "", (self.context.filename or "").endswith("__init__.py")
        return [("import", imported(b, own, package)) for b in bindings if isinstance(b.statement, _IMPORTS)]

    def _class_attributes(self, reads) -> None:
        """An import in a class body binds a class attribute (``NS.Old``), read from
        anywhere: it keeps the old name (``New as Old``), and its reads in the body stay."""
        for alias, decision in list(self._imports.aliases.items()):
            node = self.parents[alias]
            if decision is Decision.RENAME and alias.asname is None and self._in_class_body(node):
                self._imports.aliases[alias] = Decision.ALIAS
                self._imports.uses -= {read.node for read in reads.of_import(node, self.old_name)}

    def _through_class(self, node: cst.Attribute) -> bool:
        """``NS.hjx.Old``: jax's module, imported in a class body (qualified names
        do not follow a class's attributes), read at module level."""
        full = get_full_name_for_node(node.value)
        scope = self.prims.module_scope if self.prims is not None else None
        if full is None or scope is None or "." not in full:
            return False
        head, *rest = full.split(".")
        bindings, through = scope.lookup(head), False
        while rest and bindings and all(b[0] == "class" and b[1].body is not None for b in bindings):
            bindings, through = [b for info in bindings for b in info[1].body.bindings.get(rest.pop(0), [])], True
        return (
            through
            and bool(bindings)
            and all(b[0] == "import" and ".".join([b[1], *rest]) in HIJAX_MODULES for b in bindings)
        )

    def _through_module(self, node: cst.Attribute) -> bool:
        """``compat.hijax.Old`` (``m.Old`` after ``m = hijax``): jax's module, reached through
        the imports of another module of the tree, or a name bound to one (qualified names stop
        at this module's own imports), read where the head is bound at module level only."""
        full = get_full_name_for_node(node.value)
        return full is not None and self._module_of(full) in HIJAX_MODULES

    def _module_of(self, dotted: str, depth: int = 0) -> str | None:
        """The module ``dotted`` is, read at module level: through the module's imports and
        the tree's modules (``FileProject.module_read``), and a name bound once, at module
        level, to another such name (``m = hijax``); None: not known, or bound in a function."""
        scope = self.prims.module_scope if self.prims is not None else None
        if scope is None or self._model is None or self.project is None:
            return None
        head, _, rest = dotted.partition(".")
        bindings = self._model.bindings.get(head, ())
        if any(b.scope.kind != "module" for b in bindings):
            return None
        value = _aliased(bindings[0]) if len(bindings) == 1 and depth < _ALIASES else None
        if value is not None:
            return self._module_of(".".join([*value, *([rest] if rest else [])]), depth + 1)
        return self.project.module_read(scope, dotted)

    def _in_class_body(self, node: cst.CSTNode) -> bool:
        while node in self.parents and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            node = self.parents[node]
        return isinstance(node, cst.ClassDef)

    def _targets(self) -> list[cst.CSTNode]:
        """What is renamed: imports with an alias to rename, the uses they bind,
        attributes naming the old base; nothing inside an import statement,
        which is edited whole."""
        imports = {
            self.parents[alias]
            for alias, decision in self._imports.aliases.items()
            if decision in (Decision.RENAME, Decision.ALIAS)
        }
        attributes = [
            node
            for node in self._sights.attributes
            if node not in self._switched
            and (self._names(node, self._qualified) or self._through_class(node) or self._through_module(node))
        ]
        return [*imports, *(node for node in [*self._imports.uses, *attributes] if not self._in_import(node))]

    def _computed_objects(self, renamed: set[cst.Attribute]) -> None:
        """``.Old`` of an object not known here (``_unknown``): it may be jax's hijax module,
        which no longer binds the name at the target. Left as written, with an error."""
        for node in self._sights.attributes:
            why = None if node in renamed or node in self._switched else self._unknown(node.value)
            if why is None:
                continue
            self.skipped(
                self._line(node),
                None,
                f"`.{self.old_name}` of {why} (`{cst.Module([]).code_for_node(node.value)[:60]}`) may be "
                f"jax's hijax module, which no longer binds it at the target: left as written; write "
                f"`.{self.new_name}` if it is",
            )

    def _unknown(self, value: cst.BaseExpression) -> str | None:
        """What makes ``value`` an object this module cannot tell: one the code computes (a call,
        a subscript, a name assigned one), a function's parameter, a name bound when the code
        runs, a step through a module of the tree that is no import. None: an import of another
        module, a class, a function, or a name the module does not bind."""
        if isinstance(value, (cst.Call, cst.Subscript)):
            return "an object the code computes"
        full = get_full_name_for_node(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
        if full is None or self._model is None:
            return None
        head, _, rest = full.partition(".")
        bindings = self._model.bindings.get(head, ())
        module = self._module_of(full) if len(bindings) == 1 and _aliased(bindings[0]) is not None else None
        if module is not None:
            return None if module not in HIJAX_MODULES else "a name bound to jax's module"
        for binding in bindings:
            why = _bound_at_run(binding)
            if why is not None:
                return why
        imports = self._import_targets(bindings)
        if not imports or not rest or self.project is None:
            return None
        found = self.project.module_through(imports, rest.split("."))
        return "an object a module of the tree binds when the code runs" if found in (None, *HIJAX_MODULES) else None

    def _reads(self, module: cst.Module) -> ModelReads:
        """The reads of the old name, from the name model and Python's resolution
        (``rename_reads``), with their lines from ``ast`` where it counts them as libcst."""
        names = [n for n in self._sights.names if is_read(n, self.parents) and not is_store(n, self.parents)]
        model = self._model if self._model is not None else NameModel()  # none read: every import aliased
        if self._model is not None and "\r" not in self.prims.code:
            self._lines.update(paired_lines(names, model.reads_in_order(self.old_name)))
            self._lines.update(paired_lines(self._sights.attributes, model.attributes_in_order(self.old_name)))
            self._lines.update(import_lines(small_statements(module, cst.ImportFrom), model.import_froms))
        return model_reads(model, self.old_name, self.new_name, names, module)

    def _in_import(self, node: cst.CSTNode) -> bool:
        while not isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Module)):
            node = self.parents[node]
        return isinstance(node, cst.ImportFrom)

    def _edit(self, node: cst.CSTNode):
        """Report the change; the edit that makes it."""
        if isinstance(node, cst.ImportFrom):
            self.changed(self._line(node), None, f"import of `{self.old_name}` now `{self.new_name}`")
            decisions = [self._imports.aliases.get(alias) for alias in node.names]
            return lambda updated: self._renamed_import(updated, decisions)
        self.changed(self._line(node), None, f"`{self.old_name}` is now `{self.new_name}`")
        if isinstance(node, cst.Name):
            return lambda name: name.with_changes(value=self.new_name)
        return lambda attribute: attribute.with_changes(attr=cst.Name(self.new_name))

    def _names(self, node: cst.Attribute, qualified: set[str]) -> bool:
        names = attribute_names(self._model, node, self.parents) if self._model is not None else None
        if names is None:
            return any(q.name in qualified for q in self.get_metadata(QualifiedNameProvider, node, set()))
        return bool(names & qualified)

    def _line(self, node: cst.CSTNode) -> int:
        """From ``ast`` where the node was paired with its own (not for one in
        parentheses, which libcst's position would count from)."""
        line = self._lines.get(node)
        if line is None or getattr(node, "lpar", None):
            return self.prims.line(node)
        return self.prims.file_line(line)

    def _inside_switches(self, module: cst.Module) -> set[cst.CSTNode]:
        """Every node inside a switch between the old and the new name."""
        if not _may_switch(self.prims.code, self.old_name, self.new_name):
            return set()  # a walk of every node (a second of a big test module) for none
        new = {f"{module}.{self.new_name}" for module in HIJAX_MODULES}
        inside: set[cst.CSTNode] = set()
        for switch in self._sights.found:
            if switch in inside or not self._is_switch(switch, new):
                continue
            inside.update(findall(switch, (cst.ImportFrom, cst.Name, cst.Attribute)))
        return inside

    def _is_switch(self, node: cst.CSTNode, new: set[str]) -> bool:
        if isinstance(node, cst.BooleanOperation):  # ``getattr(...) or hijax.Old``: a probe
            return True
        if isinstance(node, cst.IfExp):  # the new name as a word: ``VJPHiPrimitive`` holds ``HiPrim``
            return re.search(rf"\b{self.new_name}\b", cst.Module([]).code_for_node(node)) is not None
        arms = _arms(node)  # one names the new name, another the old: each runs where it is right
        return any(self._names_new(arm, new) and not _names_old(arm, self.old_name) for arm in arms) and any(
            _names_old(arm, self.old_name) and not self._names_new(arm, new) for arm in arms
        )

    def _names_new(self, node: cst.CSTNode, new: set[str]) -> bool:
        imports_new = any(
            hijax_from(i) and any(get_full_name_for_node(a.name) == self.new_name for a in i.names)
            for i in findall(node, cst.ImportFrom)
        )
        attrs = findall(node, cst.Attribute, lambda attr: is_attribute(attr, self.new_name))
        return imports_new or any(self._names(a, new) for a in attrs)

    # -- the renames
    def _renamed_import(self, node: cst.ImportFrom, decisions: list) -> cst.ImportFrom:
        aliases, bound = [], set()
        for alias, decision in zip(node.names, decisions):
            alias = self._renamed(alias, decision)
            name = alias.asname.name.value if alias.asname else alias.name.value
            if name not in bound:
                bound.add(name)
                aliases.append(alias)
        if len(aliases) < len(node.names) and node.rpar is None:
            aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return node.with_changes(names=aliases)

    def _renamed(self, alias: cst.ImportAlias, decision: Decision | None) -> cst.ImportAlias:
        """The alias edited in place: its comma and whitespace stay."""
        if decision not in (Decision.RENAME, Decision.ALIAS):
            return alias
        if decision is Decision.ALIAS and alias.asname is None:
            return alias.with_changes(name=cst.Name(self.new_name), asname=cst.AsName(cst.Name(self.old_name)))
        alias = alias.with_changes(name=cst.Name(self.new_name))
        if alias.asname and alias.asname.name.value == self.new_name:
            alias = alias.with_changes(asname=None)
        return alias
