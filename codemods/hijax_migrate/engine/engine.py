"""Migrating one module's source: run the selected rules, in order, over it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper

from ..analysis.families import families_in_file
from ..analysis.index import Index
from ..analysis.primitives import PrimitiveMap
from ..analysis.project import FileProject, view_of
from ..analysis.spelling import check_spelling
from ..analysis.summary import Kind, bridge_of, summarize_tree
from ..analysis.visitor_scans import batched_scans_once
from ..core.errors import MigrationError
from ..core.line_breaks import MIXED, fed, lone_returns, mixed
from ..core.model import ERROR, Result
from ..core.versions import format_version
from ..rules import registry
from ..rules.context import FileContext, FileReport, Options
from ..rules.decisions import Decider
from ..rules.derived_pairs import RULE as PAIRS
from ..sources.parse import parse, trees_kept
from . import suppress, undecided, unsafe
from .checks import check_output
from .codegen import KeptText
from .formatting import format_changed
from .newer_imports import check_imports
from .origin_lines import Origins
from .output_parse import check_parses
from .triage import acting_rules, decided_at, every_word, words_named


def migrate_source(
    code: str,
    path: str = "<string>",
    options: Options | None = None,
    project: FileProject | None = None,
    module: str = "",
    triaged: bool = False,
    acting: set[str] | None = None,
) -> Result:
    """Migrate ``code``; raises MigrationError for code it cannot handle.
    ``triaged``: run only the rules triage says may act on the text as it
    stands (the same result, without whole-module visits by idle rules);
    ``acting``: triage's answer for ``code``, where the caller has it (None: asked here).
    Comments that leave code alone (``# hijax-migrate: skip``) are honoured.
    ``project``: the file's view of the tree (none: one over an index of its own).
    Other files' decisions are the project's decider's (none: one for this call)."""
    if lone_returns(code):  # classic Mac OS's line breaks (a file's text has them as line feeds)
        return _with_returns(code, path, options, project, module, triaged, acting)
    options = options or Options()
    project = project or view_of(Index(options.extra_bases))
    decider = project.decider if project.decider is not None else Decider(migrate_source)
    with batched_scans_once(), trees_kept():

        def safely(text: str, checked: frozenset[int] = frozenset()) -> Result:
            return suppress.migrate(
                _migrate_source,
                text,
                path,
                options,
                checked=checked,
                project=project,
                module=module,
                triaged=triaged,
                acting=acting if text == code else None,
                decider=decider,
            )

        def follows() -> bool:
            return unsafe.follows_fix(project, options, module, decider)

        return unsafe.with_fixes(safely, code, path, options.target, options.unsafe_fixes, follows)


def _with_returns(code: str, path: str, options, project, module: str, triaged: bool, acting) -> Result:
    """``code`` ending its lines with a lone ``\\r``, migrated as Python reads it (line feeds: the
    same lines and columns) and given back with its own breaks; a change is refused where it
    mixes them with line feeds."""
    lines_fed = fed(code)
    result = migrate_source(lines_fed, path, options, project, module, triaged, acting)
    if result.code == lines_fed:
        result.code = code
    elif (line := mixed(code)) is not None:
        raise MigrationError(MIXED, line)
    else:
        result.code = result.code.replace("\n", "\r")
    return result


def _migrate_source(
    code: str,
    path: str,
    options: Options,
    project: FileProject,
    module: str = "",
    triaged: bool = False,
    acting: set[str] | None = None,
    decider: Decider | None = None,
    checked: frozenset[int] = frozenset(),
) -> Result:
    report = FileReport(path)
    tree = parse(code)
    kept = KeptText()  # the code generated for each statement, for the code of later rewrites
    check_spelling(code, every_word())
    file = _File(path, module, path.endswith("__init__.py"), project, options.classes, decider)
    prims = file.primitives(tree, code)
    if module:  # the summary just installed is of the text on disk: results may rest on it
        project.add_summary(project.summary(module), code)
    report.primitives = file.primitive_count
    report.apart = unsafe.apart(prims, project)
    report.findings.extend(undecided.notes(tree, code, prims, file.aside, path, project))
    if options.classes is not None:  # a review offers a family as one change
        report.families = families_in_file(project, list(prims.infos.values()))
    _check_target(prims, options)
    check_imports(tree, code, options.target, prims.line)
    new_code, new_tree = code, tree
    if not triaged:
        acting = None
    elif acting is None or options.classes is not None:  # an answer given is for every class
        acting = acting_rules(code, path, options, project, module)
    origins = Origins(code)  # what a rule names after a rewrite is where it stands in the file
    selected = registry.select(options.target, options.only, options.skipped)
    halves_reported = PAIRS in selected  # what a rule must know of the others: data, never their selection
    binds = decided_at(options.target)  # of every rule released, selected or not (triage reads the same)
    marks = suppress.with_checked(suppress.marks(code), checked)  # an error marked as checked halts nothing

    def marked(finding) -> bool:
        return marks is not None and marks.covers(finding.line, finding.rule)

    named = words_named(new_code)  # read again only where a rule rewrites the code
    for rule in selected:
        # Module-level code counts as plain code: a call of a rule renamed elsewhere may stand there.
        if not rule.applies(new_code, named, {*prims.kinds.values(), Kind.NONE}) or (
            acting is not None and rule.code not in acting
        ):
            continue
        if rule.kinds is None and not options.module_wide():
            continue
        reported, found = len(report.changes), len(report.findings)
        rewritten = file.apply(rule, prims, options, report, (halves_reported, binds))
        if rule.halts and any(f.severity == ERROR and not marked(f) for f in report.findings[found:]):
            report.changes.clear()  # the other rules' edits would rest on bindings none follows
            return Result(code, report)
        # Every rewrite is reported: where a rule reported none, the tree is as
        # it was, and its analysis (and resolved metadata) serves the next rule.
        if len(report.changes) != reported:
            new_tree, new_code = rewritten, kept.code(rewritten)
            named = words_named(new_code)
            origins.follow(new_code)
            prims = _primitives_of_rewrite(file, code, tree, new_tree, new_code, path)
            prims.origin = origins.line
            acting = acting_rules(new_code, path, options, project, module) if triaged else None
    if options.black and new_code != code:
        formatted = format_changed(code, new_code, Path(path), report)
        new_code, new_tree = formatted, new_tree if formatted == new_code else None
    if new_code != code:
        # Never write code that does not parse: CPython's compile decides where it
        # reads the input; libcst parses again only where it cannot (newer syntax).
        if not check_output(code, new_code, path):
            check_parses(tree, new_tree, new_code)
    return Result(new_code, report)


def _primitives_of_rewrite(
    file: _File, code: str, tree: cst.Module, new_tree: cst.Module, new_code: str, path: str
) -> PrimitiveMap:
    """The primitives of a rule's output (``new_code``, the code of ``new_tree``). A rewrite
    ``ast`` cannot read is a tool bug, named as the output checks name it, not the input's syntax."""
    try:
        return file.primitives(new_tree, new_code)
    except MigrationError:
        if not check_output(code, new_code, path):
            check_parses(tree, new_tree, new_code)
        raise


def _check_target(prims: PrimitiveMap, options: Options) -> None:
    """Going backwards is not supported: HiPrim code cannot target an older jax."""
    if options.target >= (0, 11, 2):
        return
    for cls, kind in prims.kinds.items():
        if kind is Kind.HIPRIM:
            raise MigrationError(
                f"class {prims.qualnames[cls]} already uses HiPrim (jax 0.11.2+), "
                f"newer than the target jax {format_version(options.target)}",
                prims.line(cls),
            )


@dataclass
class _File:
    path: str
    module: str
    is_package: bool
    project: FileProject
    classes: frozenset[str] | None  # None: all
    decider: Decider  # other files' decisions, for the rules (their FileContext)
    primitive_count: int = 0
    aside: dict = None  # deliberate fixtures among the primitives -> where they stand

    def primitives(self, tree: cst.Module, code: str) -> PrimitiveMap:
        bridge = bridge_of(tree, code)
        summary, nodes = summarize_tree(tree, code, self.module, self.is_package, bridge)
        if self.module:  # classes of this file, as rewritten so far
            self.project.add_summary(summary)
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        prims = PrimitiveMap.build(wrapper, summary, nodes, self.project, bridge)
        prims.code = code
        self.aside = undecided.set_aside(prims, undecided.fixtures(prims.bridge))
        self.primitive_count = sum(kind.is_primitive for kind in prims.kinds.values())
        if self.classes is not None:  # classes not chosen in review count as no primitive
            prims.kinds = {
                node: kind if prims.qualnames[node] in self.classes else Kind.NONE for node, kind in prims.kinds.items()
            }
        return prims

    def apply(self, rule, prims: PrimitiveMap, options: Options, report: FileReport, known: tuple) -> cst.Module:
        """``known``: what a rule knows of the others (``FileContext.halves_reported``, ``binds``)."""
        wrapper, (halves_reported, binds) = prims.wrapper, known
        context = FileContext(
            self.path, self.module or None, wrapper, halves_reported=halves_reported, decider=self.decider, binds=binds
        )
        new_tree = rule.transformer(context, prims, options, report, self.project).rewrite(wrapper)
        return context.apply_imports(new_tree)
