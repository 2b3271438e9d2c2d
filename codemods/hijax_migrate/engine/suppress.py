"""Comments that leave code alone, as ruff's ``# noqa`` does.

``# hijax-migrate: skip`` (every rule) or ``# noqa: HJX001, HJX003`` (those
rules; a bare ``# noqa``, or one naming no HJX code, is another tool's) at
the end of a line covers that line; on a class's first line, the whole
class. ``# hijax-migrate: skip-file`` on a line of its own covers the file.

A covered finding is kept as a ``suppressed`` one: counted, never shown. A
covered change cannot be dropped alone (a family of classes is migrated whole
or not at all), so the file is migrated again without the families covered
changes belong to, as ``--interactive`` migrates the units a person accepts.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field, replace

from ..core.model import SUPPRESSED, FileReport, Finding, Result

_SKIP = re.compile(r"#\s*hijax-migrate:\s*skip(-file)?\s*$", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa:\s*([\w\s,]+)", re.IGNORECASE)
# In a Markdown document (or a notebook's JSON), on a line of its own.
DOCUMENT_MARK = re.compile(r"^\s*(?:<!--|#)\s*hijax-migrate:\s*skip-file\s*(?:-->)?\s*$", re.MULTILINE)


@dataclass
class Marks:
    whole_file: bool = False
    lines: dict[int, frozenset[str] | None] = field(default_factory=dict)  # None: every rule
    classes: list[tuple[int, int, frozenset[str] | None]] = field(default_factory=list)  # first, last line, codes

    def covers(self, line: int, rule: str) -> bool:
        spans = [(line, line, self.lines[line])] if line in self.lines else []
        return any(
            first <= line <= last and (codes is None or rule in codes) for first, last, codes in spans + self.classes
        )


def marks(code: str) -> Marks | None:
    """The file's marks; None where it has none (a byte search decides most files)."""
    if "hijax-migrate:" not in code and "noqa" not in code:
        return None
    found = Marks()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                _read(token, found)
    except (tokenize.TokenError, SyntaxError):
        return None  # the parse says what is wrong with the file
    if not found.lines and not found.whole_file:
        return None
    found.classes = _marked_classes(code, found.lines)
    return found


def _read(token: tokenize.TokenInfo, found: Marks) -> None:
    comment, line = token.string, token.start[0]
    skip = _SKIP.search(comment)
    if skip and skip.group(1):
        found.whole_file |= token.line.strip() == comment.strip()  # on a line of its own
    elif skip:
        found.lines[line] = None
    noqa = _NOQA.search(comment)
    codes = noqa and frozenset(c for c in re.split(r"[\s,]+", noqa.group(1).upper()) if c.startswith("HJX"))
    if codes and found.lines.get(line, ()) is not None:
        found.lines[line] = codes


def _marked_classes(code: str, lines: dict) -> list[tuple[int, int, frozenset[str] | None]]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [
        (node.lineno, node.end_lineno, lines[node.lineno])
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.lineno in lines
    ]


def migrate(run, code: str, path: str, options, **rest) -> Result:
    """``run(code, path, options, **rest)`` (the engine's migration), with the
    file's marks honoured."""
    found = marks(code)
    if found is None:
        return run(code, path, options, **rest)
    if found.whole_file:
        return Result(code, FileReport(path))
    first = run(code, path, options, **rest)
    covered = {c.cls for c in first.report.changes if found.covers(c.line, c.rule)}
    result = first
    if covered and options.classes is None:
        result = run(code, path, replace(options, classes=_without(run, code, path, options, rest, covered)), **rest)
    return Result(result.code, _report(result.report, first.report, found))


def _without(run, code: str, path: str, options, rest: dict, covered: set[str]) -> frozenset[str]:
    """Every class (and "", the module-wide renames) but the families of ``covered``."""
    families = run(code, path, replace(options, classes=frozenset()), **rest).report.families
    dropped = {families.get(name, name) for name in covered}
    return frozenset({"", *families} - {name for name in {"", *families} if families.get(name, name) in dropped})


def _report(report: FileReport, first: FileReport, found: Marks) -> FileReport:
    """Covered findings, and what the first run did that this one does not,
    as suppressed findings: counted, never shown."""
    kept = {_key(f) for f in report.findings} | {(c.line, c.rule, c.action) for c in report.changes}
    gone = [
        Finding(first.file, c.line, f"suppressed: {c.action}", c.rule, severity=SUPPRESSED)
        for c in first.changes
        if (c.line, c.rule, c.action) not in kept
    ]
    gone += [replace(f, severity=SUPPRESSED) for f in first.findings if _key(f) not in kept]
    findings = [replace(f, severity=SUPPRESSED) if found.covers(f.line, f.rule) else f for f in report.findings]
    return replace(report, findings=findings + gone)


def _key(finding: Finding) -> tuple:
    return finding.line, finding.rule, finding.message
