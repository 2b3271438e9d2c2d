"""Unsafe fixes (ruff's word): a rewrite proposed for a refusal, never proven.

A refusal stays what it is: an error, and the file's safe output is computed
exactly as without this module. Where every error of a file is a refused
binding of ``vjp_bwd`` spelled out at its site (an identifier, or the string
literal ``"vjp_bwd"``: HJX016's forms no rule follows, HJX001's rules it cannot
prove, a value rule on a base picked when the code runs), the candidate is the
rename strategy at those sites alone: ``vjp_bwd`` becomes ``vjp_bwd_retval``,
which jax runs as a value rule from 0.8.1 on. The renamed text is migrated
again, safely; where that leaves an error, its sites are renamed too (a few
rounds), and where an error is left with no such site, the file has no fix.

The fix found is the file as that last migration writes it. Without
``Options.unsafe_fixes`` each refusal carries it (``Finding.fix``: JSON, the
summary's count of hidden fixes) and nothing else changes; with it, the
result is that migration, and each refusal becomes a note saying an unproven
fix was applied.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable
from dataclasses import replace

from ..analysis.ast_summary import rule_form
from ..analysis.probes import PORT
from ..analysis.scopes import CLASSIC
from ..core.errors import MigrationError
from ..core.linediff import file_diff
from ..core.model import NOTE, Finding, Fix, Result
from ..core.versions import Version

OLD, NEW = "vjp_bwd", "vjp_bwd_retval"
SINCE: Version = (0, 8, 1)  # the first release with ``vjp_bwd_retval`` (docs: hijax-api, release history)
ROUNDS = 4  # migrations of the renamed text at most: each round renames sites the one before refused
_RULES = ("HJX016", "HJX001")  # the rules whose refusals of a binding may carry the candidate
_LITERALS = (f'"{OLD}"', f"'{OLD}'")
REASON = (
    "the tool cannot prove the renamed rule is the one jax calls, nor that it returns the cotangents "
    "jax expects: check the gradient (the tests that exercise it) before relying on it"
)
APPLIED = "unsafe fix applied (not proven: check the gradient)"

Site = tuple[int, int]  # (line, column) of a token spelled ``vjp_bwd`` or ``"vjp_bwd"``


def with_fixes(migrate: Callable[[str], Result], code: str, path: str, target: Version, write: bool) -> Result:
    """``migrate(code)``, the safe migration; where its refusals have a candidate, with it: attached
    to each refusal, or (``write``) applied."""
    result = migrate(code)
    refused = [f for f in result.report.findings if f.is_error]
    if not refused or target < SINCE:
        return result
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


def _attempt(migrate: Callable[[str], Result], code: str, result: Result) -> tuple[Result, tuple[int, ...]] | None:
    """The migration of the renamed text that leaves no error, and the lines renamed; None: none."""
    text, lines = code, set()
    for _ in range(ROUNDS):
        sites = candidate_sites(text, [f for f in result.report.findings if f.is_error])
        if not sites:
            return None
        text, lines = renamed(text, sites), lines | {line for line, _ in sites}
        try:
            result = migrate(text)
        except MigrationError:
            return None
        if not any(f.is_error for f in result.report.findings):
            return result, tuple(sorted(lines))
    return None


def candidate_sites(code: str, refusals: list[Finding]) -> list[Site] | None:
    """The sites each refusal's candidate renames; None where one has none (then the file has no fix)."""
    try:
        tree, tokens = ast.parse(code), _named_tokens(code)
    except (SyntaxError, tokenize.TokenError, ValueError):
        return None
    sites: set[Site] = set()
    for finding in refusals:
        found = _sites(tree, tokens, finding)
        if not found:
            return None
        sites |= found
    return sorted(sites)


def _sites(tree: ast.Module, tokens: dict[int, list[tuple[int, str]]], finding: Finding) -> set[Site]:
    """A refusal's sites: at a class a base picked at run leaves undecided, its value ``def vjp_bwd``
    rules; at a refused binding of a rule, the tokens of its statement (a ``def``: its name alone)."""
    if PORT in finding.message:
        cls = _statement_at(tree, finding.line, ast.ClassDef)
        return {s for func in _value_rules(cls) for s in _def_name(func, tokens)} if cls is not None else set()
    if finding.rule not in _RULES:
        return set()
    stmt = _statement_at(tree, finding.line, ast.stmt)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _def_name(stmt, tokens)
    if stmt is None or isinstance(stmt, ast.ClassDef):
        return set()
    return {(line, col) for line in range(stmt.lineno, _header_end(stmt) + 1) for col, _ in tokens.get(line, [])}


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


def _def_name(func: ast.FunctionDef | ast.AsyncFunctionDef, tokens: dict[int, list[tuple[int, str]]]) -> set[Site]:
    """The name token of ``def vjp_bwd``: the first ``vjp_bwd`` on its ``def`` line."""
    named = [col for col, text in tokens.get(func.lineno, []) if text == OLD] if func.name == OLD else []
    return {(func.lineno, named[0])} if named else set()


def _named_tokens(code: str) -> dict[int, list[tuple[int, str]]]:
    """line -> (column, text) of each identifier ``vjp_bwd`` and each plain literal ``"vjp_bwd"``."""
    found: dict[int, list[tuple[int, str]]] = {}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if (token.type == tokenize.NAME and token.string == OLD) or (
            token.type == tokenize.STRING and token.string in _LITERALS
        ):
            found.setdefault(token.start[0], []).append((token.start[1], token.string))
    return found


def renamed(code: str, sites: list[Site]) -> str:
    """``code`` with the token at each site renamed (a literal keeps its quotes)."""
    lines = code.splitlines(keepends=True)
    for line, col in sorted(sites, reverse=True):
        text = lines[line - 1]
        start = col + 1 if text[col] in "\"'" else col
        lines[line - 1] = text[:start] + NEW + text[start + len(OLD) :]
    return "".join(lines)


def _message(lines: tuple[int, ...]) -> str:
    where = ", ".join(str(line) for line in lines)
    return f"`{OLD}` renamed `{NEW}` at line{'s' if len(lines) > 1 else ''} {where}, the file then migrated as usual"
