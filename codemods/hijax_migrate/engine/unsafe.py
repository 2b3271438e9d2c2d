"""Unsafe fixes (ruff's word): a rewrite proposed for a refusal, never proven.

A refusal stays what it is: an error, and the file's safe output is computed
exactly as without this module. Where every error of a file is a refused
binding of ``vjp_bwd`` spelled out at its site (an identifier, or a string of
that value: HJX016's forms no rule follows, HJX001's rules it cannot prove, a
value rule on a base picked when the code runs), or held by a value the file
writes out (``answered``: ``setattr(Op, NAME, f)``, a ``types.new_class``
namespace), the candidate is the rename strategy: ``vjp_bwd`` becomes
``vjp_bwd_retval`` (jax's value rule from 0.8.1 on) at every spelling of the
name in the file (``analysis/rule_spellings.py``), for a wrapper reads the name
where the class binds it (renaming the refused sites alone gave the right
gradient for 10 of 36 generated programs): not in a class of another protocol
(``apart``), nor at a ``def`` already in the accumulator form. A file that
spells the name in a way the rename cannot follow (a piece of it joined to
something else, a name imported from elsewhere: ``unfollowed``) has no fix.
The renamed text is migrated again, safely, each answered site taken as
checked (as a ``# noqa: HJX016`` there would be); where that leaves an error,
its sites are renamed too (a few rounds), and where an error is left with no
such site, no fix.

The fix found is the file as that last migration writes it. Without
``Options.unsafe_fixes`` each refusal carries it (``Finding.fix``: JSON, the
summary's count of hidden fixes) and nothing else changes; with it, the
result is that migration, each refusal a note saying an unproven fix was
applied, and a file whose classes derive from a class another file's fix
renames is renamed alike (``follows_fix``), or gets an error where it cannot be.
"""

from __future__ import annotations

import ast
import tokenize
from collections.abc import Callable
from dataclasses import replace

from ..analysis.ast_summary import rule_form
from ..analysis.function_kinds import RUNS_NONE
from ..analysis.probes import PORT, base_bound_at_run
from ..analysis.rule_spellings import (
    NEW,
    OLD,
    Site,
    Tokens,
    called,
    folded,
    followed_value,
    imported_names,
    name_argument,
    named_tokens,
    parsed,
    renamed,
    unfollowed,
)
from ..analysis.scopes import CLASSIC, Kind, defines_rules
from ..core.errors import MigrationError
from ..core.linediff import file_diff
from ..core.model import ERROR, NOTE, SUPPRESSED, Finding, Fix, Result
from ..core.versions import Version
from .suppress_spans import spans_of

SINCE: Version = (0, 8, 1)  # the first release with ``vjp_bwd_retval`` (docs: hijax-api, release history)
ROUNDS = 4  # migrations of the renamed text at most: each round renames sites the one before refused
_RULES = ("HJX016", "HJX001")  # the rules whose refusals of a binding may carry the candidate
REASON = (
    "the tool cannot prove the renamed rule is the one jax calls, nor that it returns the cotangents "
    "jax expects: check the gradient (the tests that exercise it) before relying on it"
)
APPLIED = "unsafe fix applied (not proven: check the gradient)"
_BY_HAND = "port both by hand"


def apart(prims, project) -> list[str]:
    """The classes of ``prims`` (a ``PrimitiveMap``) that bind hijax rule names but are no primitive
    and may be none (no base from outside the tree, none picked at run): another protocol's."""
    found = []
    for node, kind in prims.kinds.items():
        info = prims.infos.get(node)
        if kind is Kind.NONE and info is not None and defines_rules(info):
            if base_bound_at_run(kind, info, project) is None:
                found.append(prims.qualnames[node])
    return found


def with_fixes(
    migrate: Callable[[str], Result],
    code: str,
    path: str,
    target: Version,
    write: bool,
    follows: Callable[[], bool] = lambda: False,
) -> Result:
    """``migrate(code)``, the safe migration; where its refusals have a candidate, with it: attached
    to each refusal, or (``write``) applied. A file with no refusal whose class derives from one
    another file's fix renames (``follows``) is renamed alike where ``write``, with a note."""
    result = migrate(code)
    refused = [f for f in result.report.findings if f.is_error]
    if target < SINCE:
        return result
    if not refused:
        return _followed(migrate, code, path, result) if write and follows() else result
    found = _attempt(migrate, code, result)
    if found is None:
        return result
    fixed, lines = found
    fix = Fix(_message(lines), REASON, lines, file_diff(path, code, fixed.code))
    if not write:
        result.report.findings[:] = [replace(f, fix=fix) if f.is_error else f for f in result.report.findings]
        return result
    applied = replace(fix, applied=True)
    said = f"{APPLIED}: {fix.message}; the refusal it answers: "
    notes = [replace(f, message=said + f.message, severity=NOTE, fix=applied) for f in refused]
    fixed.report.findings[:0] = notes
    return fixed


def _followed(migrate: Callable[[str], Result], code: str, path: str, result: Result) -> Result:
    """The file renamed as a class it derives from was, where that leaves no error; else ``result``,
    with an error where the file reaches the rule by a name the rename cannot follow."""
    sites = _renamable(code, result.report.apart)
    if not sites:
        return result
    if why := unfollowed(code):
        message = f"a class here derives from one whose unsafe fix renames `{OLD}`, but {why}: {_BY_HAND}"
        result.report.findings.insert(0, Finding(result.report.file, why.line, message, "", severity=ERROR))
        return result
    try:
        fixed = migrate(renamed(code, sites))
    except MigrationError:
        return result
    if any(f.is_error for f in fixed.report.findings):
        return result
    lines = tuple(sorted({site[0] for site in sites}))
    fix = Fix(_message(lines), REASON, lines, file_diff(path, code, fixed.code), applied=True)
    said = f"{APPLIED}: {fix.message}, as in the module of a base whose own refusal it answers"
    fixed.report.findings.insert(0, Finding(result.report.file, lines[0], said, "", severity=NOTE, fix=fix))
    return fixed


def _attempt(migrate: Callable[..., Result], code: str, result: Result) -> tuple[Result, tuple[int, ...]] | None:
    """The migration of the renamed text that leaves no error, and the lines renamed; None: none.
    A refusal the rename answers (``answered``) is taken as checked by the migrations after."""
    if not all(_may_have_sites(f) for f in result.report.findings if f.is_error) or unfollowed(code):
        return None  # a refusal of a rule no rename answers (HJX008...): none, without reading the text
    text, lines, checked = code, set(), frozenset()
    for _ in range(ROUNDS):
        found = _candidate(text, [f for f in result.report.findings if f.is_error], result.report.apart)
        if found is None or not (found[0] or found[1] - checked):
            return None
        sites, more = found
        text, lines, checked = renamed(text, sites), lines | {site[0] for site in sites}, checked | more
        try:
            result = migrate(text, checked)
        except MigrationError:
            return None
        if lines and not any(f.is_error for f in result.report.findings):
            return _unmarked(result, checked), tuple(sorted(lines))
    return None


def _unmarked(result: Result, checked: frozenset[int]) -> Result:
    """``result`` without the findings counted as suppressed at ``checked``: the fix's, not a comment's."""
    marked = [f for f in result.report.findings if f.severity == SUPPRESSED and f.line in checked]
    result.report.findings[:] = [f for f in result.report.findings if f not in marked]
    return result


def answered(tree: ast.Module, refusals: list[Finding]) -> frozenset[int]:
    """The lines of the HJX016 refusals of ``tree`` whose name, not written out at the site, is held
    by a value the rename follows: ``setattr(obj, NAME, f)`` (``delattr``...) with a name the file
    binds itself; ``types.new_class`` with a namespace written out (``lambda ns: ns.update({...})``).
    Once every literal spelling of the rule is renamed, such a site binds the renamed rule too."""
    imported = imported_names(tree)
    return frozenset(
        f.line for f in refusals if f.rule == "HJX016" and _answers(_statement_at(tree, f.line, ast.stmt), imported)
    )


def _answers(stmt: ast.AST | None, imported: set[str]) -> bool:
    value = getattr(stmt, "value", None) if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if not isinstance(value, ast.Call):
        return False
    name = name_argument(value)
    if name is not None:
        return followed_value(name, imported)
    return called(value) == "new_class" and _written_namespace(value)


def _written_namespace(call: ast.Call) -> bool:
    """``types.new_class``'s ``exec_body``: none, or a lambda that updates the namespace from a dict
    whose keys are written out (or from keywords)."""
    body = call.args[3] if len(call.args) > 3 else next((k.value for k in call.keywords if k.arg == "exec_body"), None)
    if body is None or isinstance(body, ast.Constant) and body.value is None:
        return True
    if not (isinstance(body, ast.Lambda) and isinstance(body.body, ast.Call) and called(body.body) == "update"):
        return False
    update = body.body
    if not all(isinstance(arg, ast.Dict) for arg in update.args) or not all(k.arg for k in update.keywords):
        return False  # ``ns.update(members)``, ``**members``: keys not written here
    return all(key is not None and folded(key) is not None for arg in update.args for key in arg.keys)


def candidate_sites(code: str, refusals: list[Finding], apart: list[str] = ()) -> list[Site] | None:
    """The sites the candidate renames, every spelling of the name the file holds (a name is one
    name: a wrapper reads it where the class binds it); None where a refusal has no site of its own."""
    found = _candidate(code, refusals, apart)
    return found[0] if found is not None else None


def _candidate(code: str, refusals: list[Finding], apart: list[str]) -> tuple[list[Site], frozenset[int]] | None:
    """``candidate_sites``, and the lines of the refusals the rename answers (``answered``): one parse."""
    try:
        tree = parsed(code)
        tokens = named_tokens(code, tree)
    except (SyntaxError, tokenize.TokenError, ValueError):
        return None
    checked = answered(tree, refusals)
    kept = _kept(tree, tokens)  # a refusal whose only site the rename leaves (a rule taking accumulators): none
    if not all(finding.line in checked or _sites(tree, tokens, finding) - kept for finding in refusals):
        return None
    return _renamable(code, apart, tree, tokens, kept), checked


def _renamable(
    code: str, apart: list[str], tree: ast.Module | None = None, tokens: Tokens | None = None, kept=None
) -> list[Site]:
    """Every site of the name in the file, but in a class of another protocol (``apart``) and at
    an accumulator rule's ``def`` (``kept``: jax's own form, which the value rule's rename would shadow)."""
    try:
        tree = tree or parsed(code)
        tokens = tokens if tokens is not None else named_tokens(code, tree)
    except (SyntaxError, tokenize.TokenError, ValueError):
        return []
    spans = [(span.first, span.last) for span in spans_of(tree) if span.qualname in apart]
    kept = kept if kept is not None else _kept(tree, tokens)
    return sorted(
        site
        for line, found in tokens.items()
        for _, _, site in found
        if site not in kept and not any(first <= line <= last for first, last in spans)
    )


def _kept(tree: ast.Module, tokens: Tokens) -> set[Site]:
    """The name of each accumulator rule's ``def``: never renamed (``_renamable``)."""
    return {site for func in _accumulator_rules(tree) for site in _def_name(func, tokens)}


def _accumulator_rules(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == OLD and rule_form(n) != CLASSIC]


def _may_have_sites(finding: Finding) -> bool:
    """Can ``_sites`` or ``answered`` find anything for ``finding``? (False: no candidate; nor for a
    rule whose call runs none of its body, a generator's or coroutine's, which no rename makes work.)"""
    return (finding.rule in _RULES or PORT in finding.message) and RUNS_NONE not in finding.message


def _sites(tree: ast.Module, tokens: Tokens, finding: Finding) -> set[Site]:
    """A refusal's sites: at a class a base picked at run leaves undecided, its value ``def vjp_bwd``
    rules; at a refused binding of a rule, the tokens of its statement (a ``def``: its name alone),
    and at a class, of the statements of its body."""
    if PORT in finding.message:
        cls = _statement_at(tree, finding.line, ast.ClassDef)
        return {s for func in _value_rules(cls) for s in _def_name(func, tokens)} if cls is not None else set()
    if finding.rule not in _RULES:
        return set()
    stmt = _statement_at(tree, finding.line, ast.stmt)
    if isinstance(stmt, ast.ClassDef):  # a refusal named at the class: the bindings its body makes
        return {site for inner in stmt.body if not isinstance(inner, ast.ClassDef) for site in _of(inner, tokens)}
    return _of(stmt, tokens) if stmt is not None else set()


def _of(stmt: ast.stmt, tokens: Tokens) -> set[Site]:
    """The sites of one statement: a ``def``'s name alone, else the tokens of its header."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _def_name(stmt, tokens)
    return {site for line in range(stmt.lineno, _header_end(stmt) + 1) for _, _, site in tokens.get(line, [])}


def _header_end(stmt: ast.stmt) -> int:
    """The last line of a statement, or of its header where it holds others (``for``, ``with``...)."""
    inner = [s for s in getattr(stmt, "body", []) if isinstance(s, ast.stmt)]
    return max(stmt.lineno, inner[0].lineno - 1) if inner else stmt.end_lineno


def _statement_at(tree: ast.Module, line: int, kind: type) -> ast.AST | None:
    """The outermost statement of ``kind`` that starts at ``line``."""
    return next((node for node in ast.walk(tree) if isinstance(node, kind) and node.lineno == line), None)


def _value_rules(cls: ast.ClassDef) -> list[ast.FunctionDef]:
    """The class's own ``def vjp_bwd`` returning cotangents, in its body or a block of it."""
    found, todo = [], list(cls.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, ast.FunctionDef) and stmt.name == OLD and rule_form(stmt) == CLASSIC:
            found.append(stmt)
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo += [s for name in ("body", "orelse", "finalbody") for s in getattr(stmt, name, [])]
            todo += [s for handler in getattr(stmt, "handlers", []) for s in handler.body]
    return found


def _def_name(func: ast.FunctionDef | ast.AsyncFunctionDef, tokens: Tokens) -> set[Site]:
    """The name token of ``def vjp_bwd``: the first ``vjp_bwd`` on its ``def`` line."""
    named = [site for _, text, site in tokens.get(func.lineno, []) if text == OLD] if func.name == OLD else []
    return {named[0]} if named else set()


def _message(lines: tuple[int, ...]) -> str:
    where = ", ".join(str(line) for line in lines)
    return f"`{OLD}` renamed `{NEW}` at line{'s' if len(lines) > 1 else ''} {where}, the file then migrated as usual"


def follows_fix(project, options, module: str, decider) -> bool:
    """Does a class of ``module`` derive from a class of another module whose migration carries an
    unsafe fix? Its subclasses there reach the rule by the name that fix renames."""
    summary = project.summary(module) if module else None
    if summary is None:
        return False
    bases = {(info.scope, base) for info in summary.every_class for base in info.bases if base}
    modules = {other.module for scope, base in bases for other in project.classes_of_name(scope, base)}
    return any(decider.fixed_unsafely(project, options, other) for other in sorted(modules - {module, ""}))
