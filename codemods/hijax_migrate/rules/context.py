"""What one file's migration knows and what it reports back."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import ParentNodeProvider, QualifiedNameProvider, ScopeProvider

from ..analysis.dispatch import QuickTransformer
from ..analysis.primitives import PrimitiveMap, around
from ..analysis.project import Project
from ..core.model import ERROR, NOTE, STRATEGIES, Change, FileReport, Finding, Options  # noqa: F401 (re-exported)


@dataclass
class FileContext:
    """What libcst's ``CodemodContext`` holds for a rule, without importing
    ``libcst.codemod`` (with ``libcst.matchers``, half a second of a run):
    that happens only when a rule adds or removes an import."""
    filename: str | None
    full_module_name: str | None
    wrapper: cst.MetadataWrapper | None
    warnings: list[str] = field(default_factory=list)
    scratch: dict = field(default_factory=dict)
    # A lone half of a derived pair in a primitive's body is reported at its class
    # (the derived-pairs rule runs): what one rule must know of another, as data.
    halves_reported: bool = False
    decider: object = None  # the run's cross-file decisions (a rules.decisions.Decider)

    def codemod_context(self):
        """libcst's own context over the same warnings and scratch."""
        from libcst.codemod import CodemodContext

        return CodemodContext(warnings=self.warnings, scratch=self.scratch, filename=self.filename,
                              full_module_name=self.full_module_name, wrapper=self.wrapper)

    def add_import(self, module: str, obj: str | None = None) -> None:
        from libcst.codemod.visitors import AddImportsVisitor

        AddImportsVisitor.add_needed_import(self.codemod_context(), module, obj)

    def remove_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        """``asname``: the name it is imported as, where it is not its own
        (libcst removes only an import whose alias is the one asked for)."""
        from libcst.codemod.visitors import RemoveImportsVisitor

        RemoveImportsVisitor.remove_unused_import(self.codemod_context(), module, obj, asname)

    def apply_imports(self, tree: cst.Module) -> cst.Module:
        """The imports the rule asked for, added and removed by libcst's visitors
        (on the import statements alone where that is the same: ``import_edits``)."""
        if not self.scratch:
            return tree
        from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

        from ..analysis.visitor_scans import matcher_scans_once
        from .import_edits import add_imports, remove_imports

        context = self.codemod_context()
        with matcher_scans_once():
            if context.scratch.get(AddImportsVisitor.CONTEXT_KEY):
                tree = add_imports(AddImportsVisitor, context, tree)
            removals = context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY)
            if removals:
                tree = remove_imports(RemoveImportsVisitor, context, tree, removals)
        return tree


class _OnFirstUse(Mapping):
    """The declared providers' metadata of a wrapper's module, each resolved when first read;
    qualified names and parents node by node, where that gives libcst's own answer cheaper."""

    def __init__(self, wrapper: cst.MetadataWrapper, declared, parents: dict):
        self._wrapper, self._declared = wrapper, frozenset(declared)
        self._entered_from, self._shortcuts = parents, {}

    def __getitem__(self, provider):
        if provider not in self._declared:
            raise KeyError(provider)
        if provider in self._wrapper._metadata:  # resolved already: kept by the wrapper
            return self._wrapper._metadata[provider]
        if provider not in self._shortcuts:
            self._shortcuts[provider] = self._shortcut(provider)
        return self._shortcuts[provider]

    def _shortcut(self, provider):
        if provider is QualifiedNameProvider:
            return _Qualified(self._wrapper, self._entered_from)
        if provider is ParentNodeProvider:
            return _Parents(self._wrapper, self._entered_from)
        return self._wrapper.resolve(provider)

    def __iter__(self):
        return iter(self._declared)

    def __len__(self) -> int:
        return len(self._declared)


class _Exact(Mapping):
    """A provider's metadata read node by node; a node this shortcut cannot
    answer for (not met yet, or not of the tree) gets the full resolution's answer."""

    def __init__(self, wrapper: cst.MetadataWrapper, provider):
        self._wrapper, self._provider = wrapper, provider

    def _full(self, node):
        return self._wrapper.resolve(self._provider)[node]

    def __iter__(self):
        return iter(self._wrapper.resolve(self._provider))

    def __len__(self) -> int:
        return len(self._wrapper.resolve(self._provider))


class _Qualified(_Exact):
    """QualifiedNameProvider without its walk of the module (2 s for jax's
    hijax_test.py): it asks the node's scope, which is what the provider
    does for every node; a rule asks for a few."""

    def __init__(self, wrapper: cst.MetadataWrapper, entered: dict):
        super().__init__(wrapper, QualifiedNameProvider)
        self._scopes, self._entered = wrapper.resolve(ScopeProvider), entered

    def __getitem__(self, node):
        scope = self._scopes.get(node)
        if scope:
            return scope.get_qualified_names_for(node)
        if node in self._scopes or node in self._entered:
            return set()  # of the tree, with no scope (a comma, a name after a dot)
        return self._full(node)  # perhaps no node of the tree: a KeyError


class _Parents(_Exact):
    """ParentNodeProvider from the rule's own visit: the parent of a node the
    visit has entered is the node it was entered from."""

    def __init__(self, wrapper: cst.MetadataWrapper, parents: dict):
        super().__init__(wrapper, ParentNodeProvider)
        self._entered_from = parents

    def __getitem__(self, node):
        if node in self._entered_from:
            return self._entered_from[node]
        if node is self._wrapper.module:
            raise KeyError(node)  # the module has no parent
        return self._full(node)


class RuleTransformer(QuickTransformer):
    """Base of every rule: knows the primitives of the file and reports.

    What a rule took from libcst's ``Codemod`` (``self.context``, ``warn``), less
    the import of ``libcst.codemod``; nor has it ContextAwareTransformer's
    matcher-decorator scan (15 ms an instance): no rule uses ``@m.visit``.
    """

    # Positions are not declared: they cost a whole code generation, and
    # ``prims.line`` resolves them only when a change or warning names a line.
    METADATA_DEPENDENCIES = ()
    rule = None  # the rule's ``RULE`` (rules/<name>/__init__.py)

    @contextlib.contextmanager
    def resolve(self, wrapper: cst.MetadataWrapper):
        """What a rule declares is resolved when it first asks (``get_metadata``),
        not before its visit: a whole-module analysis (2 s for jax's 83 kB
        hijax_test.py) is paid by a rule that meets a node it is about, once
        a tree (the wrapper keeps it for the next rule), never by one whose
        names are absent."""
        declared = self.get_inherited_dependencies()
        self._entered_from = {} if {ParentNodeProvider, QualifiedNameProvider} & declared else None
        self.metadata = _OnFirstUse(wrapper, declared, self._entered_from)
        try:
            yield
        finally:
            self.metadata, self._entered_from = {}, None

    def __init__(self, context: FileContext, prims: PrimitiveMap,
                 options: Options, report: FileReport, project: Project):
        super().__init__()
        self.context = context
        self.prims, self.options, self.report, self.project = prims, options, report, project

    def rewrite(self, wrapper: cst.MetadataWrapper) -> cst.Module:
        """The module rewritten: one visit by this transformer (``rules.edits``: a rule deciding edits)."""
        return wrapper.visit(self)

    def warn(self, warning: str) -> None:
        self.context.warnings.append(warning)

    # A rule whose edits stay inside some classes (and statements) sets ``focus`` to them in
    # ``visit_Module``: the visit then walks those classes and the statements
    # around them only, not every node of the module.
    focus: set[cst.CSTNode] | None = None  # classes, and statements where a call may stand
    _keep: set[int] | None = None  # ids of the focus and the nodes on the way to it
    _inside = 0
    _entered_from: dict | None = None  # node -> the node the visit entered it from, where metadata asks
    _trail: list[cst.CSTNode] | None = None

    # Asked of every node a rule visits: by identity (``type(...) is``, ``id``), which
    # costs a fraction of an ABC's isinstance and of a node's own ``__hash__``.
    _focus_ids: set[int] | None = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        if type(node) is cst.Module:
            self._module, self._trail = node, [node]
            entered = super().on_visit(node)  # visit_Module may set the focus
            self._focus_ids = {id(n) for n in self.focus} if self.focus else None
            return entered
        if self.focus is not None and not self._inside and self._skips(node):
            return False
        if self._entered_from is not None:
            self._entered_from[node] = self._trail[-1]
            self._trail.append(node)
        if self._focus_ids is not None and id(node) in self._focus_ids:
            self._inside += 1
        return super().on_visit(node)

    def on_leave(self, original_node, updated_node):
        if type(original_node) is not cst.Module:
            if self.focus is not None and not self._inside and self._skips(original_node):
                return updated_node  # never entered: left exactly as it is
            if self._entered_from is not None:
                self._trail.pop()
            if self._focus_ids is not None and id(original_node) in self._focus_ids:
                self._inside -= 1
        return super().on_leave(original_node, updated_node)

    def _skips(self, node: cst.CSTNode) -> bool:
        """Outside the focus and off the way to it (asked only with a focus, outside it)."""
        if self._keep is None:
            self._keep = {id(kept) for kept in around(self._module, self.focus)}
        return id(node) not in self._keep

    def changed(self, line: int, cls: cst.ClassDef | str | None, action: str) -> None:
        """``cls``: the class statement, or the qualified name of a class made by ``type(...)``."""
        qualname = cls if isinstance(cls, str) else self.prims.qualnames.get(cls, "") if cls is not None else ""
        self.report.changes.append(
            Change(self.report.file, line, qualname, self.rule.code, self.rule.name, action))

    def skipped(self, line: int, cls: cst.ClassDef | str | None, reason: str, severity: str = ERROR) -> None:
        """Report code left alone: by default an error, as what a rule leaves
        unmigrated will not work on its release. ``cls`` as for ``changed``."""
        qualname = cls if isinstance(cls, str) else self.prims.qualnames[cls] if cls is not None else ""
        where = f"{qualname}: " if qualname else ""
        message = f"{where}{reason}"
        self.report.findings.append(Finding(self.report.file, line, message, self.rule.code, severity=severity))
        self.warn(f"{self.report.file}:{line}: {message}")
