"""Does a file need libcst? Decided from ``ast``, ten times faster.

A file whose classes give no selected rule anything to rewrite or report
keeps its text, and its report is its count of primitives: it is never
parsed with libcst. Each rule brings its own tests (``class_test``,
``module_test``, ``family_test`` in its package, beside its words and
kinds), each a superset of what its rewrite acts on (a wrong "nothing to
do" would be a silent miss): a rule without one, and whatever is unsure,
sends the file to libcst. What belongs to no rule (a target older than the
code, an import newer than the target, a base bound when the code runs,
fixtures set aside) is read from the facts the engine reads too
(``newer_uses``, ``probes``, ``fixture_classes``), each computed once from
``ast``. Where HJX001 alone acts, and only on half-ported rules that it
leaves as written (a note, a refusal), triage reports its decision itself
(``half_ported.alone``: the one the rewrite applies). A test runs every
golden case both ways.
"""

from __future__ import annotations

import ast
import functools
import re

from ..analysis.ast_summary import parse_ast, summarize_ast
from ..analysis.fixture_classes import fixture_classes, fixture_note
from ..analysis.line_walk import over_lines, word_lines
from ..analysis.newer_uses import newer_uses
from ..analysis.probes import base_bound_at_run, probes, users
from ..analysis.scopes import ClassInfo, Kind, ModuleSummary, Scope
from ..analysis.spelling import respelt
from ..core.line_breaks import lines_of
from ..core.model import FileReport, Finding, Options
from ..core.versions import ADDED_NAMES
from ..rules import registry
from ..rules.base import Rule, Triaged, decided_bindings
from ..sources.files import covering, named_words
from ..sources.mark_bytes import may_mark
from .suppress_reach import reached

_TYPE_CALL = re.compile(r"\btype\s*\(")


def untouched(code: str, path: str, options: Options, project, module: str = "") -> FileReport | None:
    """The report of a file no rule changes or reports on; None: migrate it."""
    return triage_of(code, path, options, project, module)[0]


def triage_of(
    code: str, path: str, options: Options, project, module: str = ""
) -> tuple[FileReport | None, set[str] | None]:
    """(``untouched``'s report, None), or where the file must be migrated
    (None, ``acting_rules``' answer for it), which the migration takes."""
    classes = _classes(code, path, options, project, module, install=True)
    acting = None if classes is None else _acting(code, *classes[:3], options, project)
    if acting == {"HJX001"}:
        report = _reported_alone(code, path, classes, options, project, module)
        if report is not None:
            return report, None
    if acting != set():
        return None, acting
    if respelt(code, every_word()) is not None:
        return None, acting  # a name Python reads otherwise: the migration refuses the file
    report = FileReport(path)
    report.primitives = sum(kind.is_primitive for _, kind, _ in classes[1])
    notes = _fixture_notes(code, path, classes[1], classes[3])
    if notes is None:
        return None, acting
    report.findings.extend(notes)
    return report, None


def _reported_alone(code: str, path: str, classes, options: Options, project, module: str) -> FileReport | None:
    """The report of a file whose one acting rule, HJX001, edits nothing: its half-ported
    rules' notes or refusals, from the decision the rewrite reads (``half_ported.alone``);
    None where anything else may act (a mark, a fixture, a family's), or it is not sure."""
    tree, found, scope, noted = classes
    if project is None or noted or may_mark(code.encode("utf-8", "surrogatepass")):
        return None
    if respelt(code, every_word()) is not None:
        return None
    if project.marks_elsewhere() and reached(project, options, module).hits:
        return None  # a mark in another file leaves a class of this family alone (``suppress._may_reach``)
    from ..rules.bwd_returns_cotangents.half_ported import alone

    infos = [info for _, _, info in found]
    summary = ModuleSummary.of(scope, infos)
    findings = alone(code, path, tree, summary, found, options, project)
    if findings is None:
        return None
    report = FileReport(path)
    report.primitives = sum(kind.is_primitive for _, kind, _ in found)
    report.findings.extend(findings)
    return report


def _fixture_notes(code: str, path: str, classes, noted: dict) -> list[Finding] | None:
    """``undecided.notes``' words on the primitives set aside as fixtures; None
    where a class's name is not on its keyword's line (libcst names that line)."""
    infos, lines, found = {node: info for node, _, info in classes}, lines_of(code), []
    for node, where in noted.items():
        if not re.match(rf"\s*class\s+{node.name}\b", lines[node.lineno - 1]):
            return None
        found.append(fixture_note(path, node.lineno, infos[node].qualname, where))
    return found


def acting_rules(code: str, path: str, options: Options, project, module: str = "") -> set[str] | None:
    """The codes of the rules that may change or report something in
    ``code`` (a superset); None: any may. For a text being rewritten, whose
    summary the engine keeps in the project."""
    classes = _classes(code, path, options, project, module, install=False)
    return None if classes is None else _acting(code, *classes[:3], options, project)


def _classes(code: str, path: str, options: Options, project, module: str, install: bool):
    """(tree, [(class, kind, info)], scope, {fixture primitive: where}) of ``code``;
    None where ``ast`` cannot decide."""
    if options.classes is not None:
        return None
    try:
        tree = parse_ast(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # newer syntax than this Python's, or broken: libcst decides, and says why
    summary, nodes = summarize_ast(tree, module, path.endswith("__init__.py"))
    if module and install:
        project.add_summary(summary, code)
    elif module:  # a text being rewritten: its imports resolved from its root all the same
        project.own_root_first(summary)
    aside = fixture_classes(tree, code)
    kinds = [project.class_kind(info) for info in summary.classes]
    # Fixtures count as no primitive, as in the migration (undecided.set_aside)
    classes = [
        (node, Kind.NONE if node in aside else kind, info) for node, kind, info in zip(nodes, kinds, summary.classes)
    ]
    noted = {node: aside[node] for node, kind in zip(nodes, kinds) if node in aside and kind is not Kind.NONE}
    return tree, classes, summary.scope, noted


def _selected(options: Options) -> list[Rule]:
    """The rules the options select (the registry loads no libcst): a file's
    options (``Options.for_file``) less its per-file-ignores."""
    return registry.select(options.target, options.only, options.skipped)


def candidate_words(options: Options) -> frozenset[bytes]:
    """The words a file must name for a selected rule to act on it (a rule
    without words: its kinds' names), and ``HiPrim`` always: the engine's own
    checks of a base or an import newer than the target belong to no rule;
    and the names newer than the target: the engine refuses code that imports
    one (newer_imports)."""
    return _candidate_words(options.target, options.only, options.skipped)


@functools.cache
def _candidate_words(target, only: tuple[str, ...], skip: tuple[str, ...]) -> frozenset[bytes]:
    """``candidate_words`` of a selection (a pure memo: a run with per-file-ignores asks once a file)."""
    rules = registry.select(target, only, skip)
    return _words(rules, [name for name, since in ADDED_NAMES.items() if since > target])


def words_named(code: str) -> frozenset[bytes]:
    """The rules' words ``code`` names, as the pre-filter reads them: what each rule's
    ``needs`` is asked of (``Rule.needed``), in triage and in the engine alike."""
    return named_words(code.encode("utf-8", "surrogatepass"), every_word())


@functools.cache
def every_word() -> frozenset[bytes]:
    """Every rule's words, and every name the engine checks, whatever the
    target: where any rule counts (a notebook cell that cannot be parsed, a
    name Python reads otherwise, a git hook's files)."""
    return _words(registry.all_rules(), list(ADDED_NAMES))


def _words(rules: list[Rule], names: list[str]) -> frozenset[bytes]:
    words = [*covering("HiPrim"), *(found for name in names for found in covering(name))]
    for rule in rules:
        words += [found for word in rule.needs or {kind.value for kind in rule.kinds} for found in covering(word)]
    return frozenset(words)


def _acting(
    code: str,
    tree: ast.Module,
    classes: list[tuple[ast.ClassDef, Kind, ClassInfo]],
    scope: Scope,
    options: Options,
    project,
) -> set[str] | None:
    present = {kind for _, kind, _ in classes}
    if options.target < (0, 11, 2) and Kind.HIPRIM in present:
        return None  # an error, with its line: the migration says it
    if imports_newer(tree, code, options.target):
        return None  # an import newer than the target: an error too
    if _picks_base_at_run(code, classes, tree) or _bound_at_run(code, tree, classes, project):
        return None
    named = words_named(code)
    acting, selected = set(), _selected(options)
    for rule in selected:
        if not rule.needed(code, named):
            continue
        if rule.file_test is not None:
            if rule.file_test(Triaged(code, tree, classes, scope, project, decided_at(options.target))):
                acting.add(rule.code)
            continue
        if rule.kinds is None:  # module-wide renames
            if options.module_wide() and (rule.module_test or _anywhere)(tree, code):
                acting.add(rule.code)
            continue
        test = rule.class_test or _anything
        if any(kind in rule.kinds and test(node, kind) for node, kind, _ in classes):
            acting.add(rule.code)
    return acting | _family_acting(code, tree, classes, scope, selected, project, acting)


@functools.cache
def decided_at(target) -> dict[str, frozenset[str]]:
    """The forms the rules released by ``target`` decide, selected or not (as the engine's)."""
    return decided_bindings(registry.select(target))


def _picks_base_at_run(code: str, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]], tree: ast.Module) -> bool:
    """A class whose base is picked by a call when the code runs (``probes``): ``undecided`` notes it."""
    infos = [info for _, _, info in classes]
    return any(users(infos, name) for name in probes(tree, code))


def _bound_at_run(code: str, tree: ast.Module, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]], project) -> bool:
    """Findings ``engine.runtime`` may make: on ``type(...)`` placing a rule,
    on a class with hijax rules whose base is bound when the code runs."""
    return may_place_rules(code, tree) or any(
        base_bound_at_run(kind, info, project) is not None for _, kind, info in classes
    )


def may_place_rules(code: str, tree: ast.Module | None = None) -> bool:
    """May ``code`` place a rule by ``type(...)`` (what ``runtime.factories``
    reads)? A superset; ``tree``: its ``ast``, where parsed already."""
    if "vjp_bwd" not in code or _TYPE_CALL.search(code) is None:
        return False
    if tree is None:
        try:
            tree = parse_ast(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True  # newer syntax than this Python's: libcst reads it
    return _places_rules(tree, code)


def _places_rules(tree: ast.Module, code: str) -> bool:
    """A ``type(...)`` call given a dict that may hold a ``vjp_bwd`` (the key
    written so, not written out, or ``**``). Most ``type(x)`` calls in a
    module that names ``vjp_bwd`` are no such call. Only the nodes over a
    line that may name ``type`` are looked at: a big module has a few."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and any(
            isinstance(arg, ast.Dict) and any(_may_be_rule(key) for key in arg.keys)
            for arg in [*node.args, *(keyword.value for keyword in node.keywords)]
        )
        for node in over_lines(tree, word_lines(code, ("type",)))
    )


def _may_be_rule(key: ast.expr | None) -> bool:
    return not (isinstance(key, ast.Constant) and isinstance(key.value, str)) or key.value == "vjp_bwd"


def imports_newer(tree: ast.Module, code: str, target) -> bool:
    """Does ``code`` import or read a hijax name newer than ``target`` (``newer_uses``,
    the fact ``newer_imports.check_imports`` raises on)?"""
    return bool(newer_uses(tree, code, target))


def _anything(node: ast.ClassDef, kind: Kind) -> bool:
    return True


def _anywhere(tree: ast.Module, code: str) -> bool:
    return True


def _family_acting(
    code: str,
    tree: ast.Module,
    classes: list[tuple[ast.ClassDef, Kind, ClassInfo]],
    scope: Scope,
    selected: list[Rule],
    project,
    known: set[str],
) -> set[str]:
    """Rules acting through a class family (bases and subclasses in other
    files), besides those ``known`` already."""
    return {
        rule.code
        for rule in selected
        if rule.family_test is not None
        and rule.code not in known
        and rule.family_test(code, tree, classes, scope, project)
    }
