"""What one file's migration knows and what it reports back."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import QualifiedName, QualifiedNameProvider

from ..analysis.dispatch import QuickTransformer
from ..analysis.primitives import PrimitiveMap, around
from ..analysis.project import Project
from ..analysis.qualified import Qualifier, ancestors_from, model_of
from ..analysis.resolution import constant_assignment
from ..analysis.return_values import returns_in
from ..analysis.returns import Returned, classify
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
    removals: list = field(default_factory=list)  # (module, name, alias) of each import asked to go
    # A lone half of a derived pair in a primitive's body is reported at its class
    # (the derived-pairs rule runs): what one rule must know of another, as data.
    halves_reported: bool = False
    decider: object = None  # the run's cross-file decisions (a rules.decisions.Decider)
    # API name -> the forms of binding it the rules released by the target decide (``Rule.binds``)
    binds: Mapping = field(default_factory=dict)

    def codemod_context(self):
        """libcst's own context over the same warnings and scratch."""
        from libcst.codemod import CodemodContext

        return CodemodContext(
            warnings=self.warnings,
            scratch=self.scratch,
            filename=self.filename,
            full_module_name=self.full_module_name,
            wrapper=self.wrapper,
        )

    def add_import(self, module: str, obj: str | None = None) -> None:
        from libcst.codemod.visitors import AddImportsVisitor

        AddImportsVisitor.add_needed_import(self.codemod_context(), module, obj)

    def remove_import(self, module: str, obj: str, asname: str | None = None) -> None:
        """``from module import obj [as asname]`` to go where nothing reads it
        (``asname``: the name it is imported as, where it is not its own)."""
        self.removals.append((module, obj, asname))

    def apply_imports(self, tree: cst.Module) -> cst.Module:
        """The imports the rule asked for, removed where nothing reads them
        (``import_removal``) and added by libcst's visitor (on the import
        statements alone where that is the same: ``import_edits``)."""
        if not self.scratch and not self.removals:
            return tree
        from .import_edits import add_imports, kept_layout
        from .import_removal import removed

        if self.scratch:
            from libcst.codemod.visitors import AddImportsVisitor

            from ..analysis.visitor_scans import matcher_scans_once

            context = self.codemod_context()
            with matcher_scans_once():
                if context.scratch.get(AddImportsVisitor.CONTEXT_KEY):
                    tree = add_imports(AddImportsVisitor, context, tree)
        return kept_layout(tree, removed(tree, self.removals)) if self.removals else tree


class _Declared(Mapping):
    """The declared providers' metadata of a wrapper's module, each resolved when
    first read (libcst's public ``resolve``); qualified names from the rule's
    ``Qualifier`` (the name model where it is sure, libcst's scopes elsewhere)."""

    def __init__(self, wrapper: cst.MetadataWrapper, declared, qualifier):
        self._wrapper, self._declared, self._qualifier = wrapper, frozenset(declared), qualifier

    def __getitem__(self, provider):
        if provider not in self._declared:
            raise KeyError(provider)
        if provider is QualifiedNameProvider:
            return _NodeNames(self._qualifier)
        return self._wrapper.resolve(provider)

    def __iter__(self):
        return iter(self._declared)

    def __len__(self) -> int:
        return len(self._declared)


class _NodeNames(Mapping):
    """``QualifiedNameProvider``'s answers node by node, for a rule that asks
    ``get_metadata`` (where the node stands is not known: libcst's scopes answer)."""

    def __init__(self, qualifier):
        self._qualifier = qualifier

    def __getitem__(self, node):
        return self._qualifier.names(node, None)

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


class RuleTransformer(QuickTransformer):
    """Base of every rule: knows the primitives of the file and reports.

    What a rule took from libcst's ``Codemod`` (``self.context``, ``warn``), less
    the import of ``libcst.codemod``; nor has it ContextAwareTransformer's
    matcher-decorator scan (15 ms an instance): no rule uses ``@m.visit``.
    """

    # Positions are not declared: they cost a whole code generation, and
    # ``prims.line`` resolves them only when a change or warning names a line.
    METADATA_DEPENDENCIES = ()
    TRAIL = False  # the visit records each node's parent: a rule asking qualified names or parents sets it
    rule = None  # the rule's ``RULE`` (rules/<name>/__init__.py)

    @contextlib.contextmanager
    def resolve(self, wrapper: cst.MetadataWrapper):
        """What a rule declares is resolved when it first asks (``get_metadata``),
        not before its visit: a whole-module analysis (2 s for jax's 83 kB
        hijax_test.py) is paid only by a rule that needs it, once a tree (the
        wrapper keeps it for the next rule). Qualified names come from the name
        model (``analysis.qualified``), parents from the visit's own trail."""
        declared = self.get_inherited_dependencies()
        self._entered_from = {} if self.TRAIL else None
        prims = self.prims
        bridge = (lambda: prims.bridge) if prims else None
        self._qualifier = Qualifier(model_of(prims.code if prims else None), wrapper, bridge)
        self.metadata = _Declared(wrapper, declared, self._qualifier)
        try:
            yield
        finally:
            self.metadata, self._entered_from, self._qualifier = {}, None, None

    def returns_of(self, func: cst.FunctionDef) -> list[cst.Return]:
        """The rule's own returns (``returns.own_returns`` of ``ast``'s statement), as libcst's nodes."""
        return returns_in(self.prims.bridge, func)

    def returned(self, ret: cst.Return) -> Returned:
        """What ``ret`` returns (``returns.classify`` of ``ast``'s statement)."""
        return classify(self.prims.bridge.ast_of(ret))

    def qualified_names(self, node: cst.CSTNode, *above: cst.CSTNode) -> set[QualifiedName]:
        """libcst's qualified names of ``node``; ``above``: its nearest ancestors
        the visit has not entered (yet), nearest first (the rest are the visit's)."""
        return self._qualifier.names(node, ancestors_from(self._entered_from or {}, node, above))

    def resolved(self, node: cst.CSTNode, *above: cst.CSTNode):
        """What the name read at ``node`` may be, as Python resolves it (a
        ``resolution.Resolved``; None: not known); ``above`` as for ``qualified_names``."""
        return self._qualifier.resolution(node, ancestors_from(self._entered_from or {}, node, above))

    def constant_assignment(self, node: cst.CSTNode, *above: cst.CSTNode):
        """The module-level assignment (an ``ast`` statement) the name read at ``node``
        stands for (``resolution.constant_assignment``); None: not one, or not known."""
        return constant_assignment(self.resolved(node, *above))

    def may_be_named(self, node: cst.CSTNode, lasts) -> bool:
        """May a qualified name of ``node`` end in one of ``lasts``
        (``Qualifier.may_end_in``)? A rule asks only of such nodes."""
        return self._qualifier.may_end_in(node, lasts)

    @property
    def name_model(self):
        """The module's names (``analysis.names``), None where ``ast`` cannot read it."""
        return self._qualifier.model

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The node the visit entered ``node`` from (None: the module, or a node not entered)."""
        return (self._entered_from or {}).get(node)

    def __init__(
        self, context: FileContext, prims: PrimitiveMap, options: Options, report: FileReport, project: Project
    ):
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
    _entered_from: dict | None = None  # node -> the node the visit entered it from, where ``TRAIL``
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
        self.report.changes.append(Change(self.report.file, line, qualname, self.rule.code, self.rule.name, action))

    def skipped(self, line: int, cls: cst.ClassDef | str | None, reason: str, severity: str = ERROR) -> None:
        """Report code left alone: by default an error, as what a rule leaves
        unmigrated will not work on its release. ``cls`` as for ``changed``."""
        qualname = cls if isinstance(cls, str) else self.prims.qualnames[cls] if cls is not None else ""
        where = f"{qualname}: " if qualname else ""
        message = f"{where}{reason}"
        self.report.findings.append(Finding(self.report.file, line, message, self.rule.code, severity=severity))
        self.warn(f"{self.report.file}:{line}: {message}")
