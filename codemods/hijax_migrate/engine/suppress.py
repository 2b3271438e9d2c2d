"""Comments that leave code alone, as ruff's ``# noqa`` does.

``# hijax-migrate: skip`` (every rule) or ``# noqa: HJX001, HJX003`` (those
rules; a bare ``# noqa``, or one naming no HJX code, is another tool's) at
the end of a line covers that line; on a class's first line, the whole
class. ``# hijax-migrate: skip-file`` on a line of its own covers the file.

A covered finding is kept as a ``suppressed`` one: counted, never shown. A
covered change cannot be dropped alone (a family of classes is migrated whole
or not at all), so the file is migrated again without the families covered
changes belong to, as ``--interactive`` migrates the units a person accepts,
and without the families that reach a class another file's comment leaves
alone (``suppress_reach``). Each class left alone keeps every byte, and the
names it reads stay bound (``kept_classes``); each is named in a finding.
What a suppression leaves failing under the target is an error (``LEFT_BROKEN``):
a ``--check`` never passes on it, and the summary names it.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from dataclasses import dataclass, field, replace

from ..core.model import ERROR, SUPPRESSED, FileReport, Finding, Result
from ..core.versions import format_version
from ..sources.mark_bytes import MAY_MARK
from .checks import check_output
from .suppress_reach import reached
from .suppress_spans import Span, attributes_named, class_spans, owner

# In the message of each error for code a suppression leaves failing under the target (the summary names them).
LEFT_BROKEN = "fails under the target as a suppression leaves it"

_SKIP = re.compile(r"#\s*hijax-migrate:\s*skip(-file)?\s*$", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa:\s*([\w\s,]+)", re.IGNORECASE)
_MAY_MARK = re.compile(MAY_MARK)
# In a Markdown document (or a notebook's JSON), on a line of its own; in any case, as ``_SKIP``.
DOCUMENT_MARK = re.compile(r"^\s*(?:<!--|#)\s*hijax-migrate:\s*skip-file\s*(?:-->)?\s*$", re.MULTILINE | re.IGNORECASE)


@dataclass
class Marks:
    whole_file: bool = False
    lines: dict[int, frozenset[str] | None] = field(default_factory=dict)  # None: every rule
    classes: list[tuple[int, int, frozenset[str] | None]] = field(default_factory=list)  # first, last line, codes
    texts: dict[int, str] = field(default_factory=dict)  # line -> the comment, as written
    file_line: int = 0  # the line of ``skip-file``

    def covers(self, line: int, rule: str) -> bool:
        return self.whole_file or self.mark_line(line, rule) is not None

    def mark_line(self, line: int, rule: str) -> int | None:
        """The line of the mark that covers ``rule`` at ``line`` (None: none does)."""
        spans = [(line, line, self.lines[line])] if line in self.lines else []
        return next(
            (
                first
                for first, last, codes in spans + self.classes
                if first <= line <= last and (codes is None or rule in codes)
            ),
            None,
        )

    def spelling(self, line: int) -> str:
        return self.texts.get(line, "# hijax-migrate: skip").strip()


def marks(code: str) -> Marks | None:
    """The file's marks; None where it has none (a byte search decides most files)."""
    if not _MAY_MARK.search(code):
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


def with_checked(found: Marks | None, lines: frozenset[int]) -> Marks | None:
    """``found`` with a ``# noqa: HJX016`` read at each of ``lines``, as if written there."""
    if not lines:
        return found
    found = found or Marks()
    for line in lines:
        if line not in found.lines or found.lines[line] is not None:
            found.lines[line] = found.lines.get(line, frozenset()) | {"HJX016"}
    return found


def _read(token: tokenize.TokenInfo, found: Marks) -> None:
    comment, line = token.string, token.start[0]
    skip = _SKIP.search(comment)
    found.texts[line] = comment
    if skip and skip.group(1) and token.line.strip() == comment.strip():  # on a line of its own
        found.whole_file, found.file_line = True, found.file_line or line
    elif skip and not skip.group(1):
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
    marks of this file and of the other files of its classes' families honoured
    (``rest["checked"]``: lines whose HJX016 findings count as marked, an unsafe fix's word)."""
    found = with_checked(marks(code), rest.get("checked", frozenset()))
    tree = reached(rest.get("project"), options, rest.get("module", "")) if _may_reach(found, options, rest) else None
    if found is None and not (tree and tree.hits):
        return run(code, path, options, **rest)
    found = found or Marks()
    first = run(code, path, options, **rest)
    if options.classes is not None:  # a review: the person chooses; covered findings are kept quiet
        return Result(first.code, _report(first.report, first.report, found))
    return _leaving_alone(run, code, path, options, rest, (found, first, tree))


def _may_reach(found: Marks | None, options, rest: dict) -> bool:
    """Must the file's families be walked across the tree? For what they join (``kin``),
    where this file has marks; else for the marks of other files they may reach: none,
    where no file of the tree holds the bytes of one (most trees: a walk of a family
    whose base is in the tree, jax's own, costs a tenth of a second)."""
    if options.classes is not None:  # a review offers families whole, marks or not
        return False
    project = rest.get("project")
    return found is not None or (project is not None and project.marks_elsewhere())


def _leaving_alone(run, code: str, path: str, options, rest: dict, known: tuple) -> Result:
    """The file migrated but for what its marks and those of its families' other files
    leave alone (``known``: the marks, the unsuppressed migration, the tree's families)."""
    found, first, tree = known
    spans = class_spans(code)
    marked = _marked(found, first.report, spans)
    why = {name: _Why(name, line, found.spelling(line)) for name, line in marked.items()}
    why |= {name: _remote(hit, rest) for name, hit in (tree.hits if tree else {}).items()}
    families = run(code, path, replace(options, classes=frozenset()), **rest).report.families if why else {}
    left = _left(families, tree.kin if tree else {}, spans, why)
    if not left and "" not in marked:  # the marks cover nothing the migration does
        return Result(first.code, _report(first.report, first.report, found))
    result, rebound = _without(run, code, path, options, rest, (families, left, "" in marked, found.whole_file))
    if result is None:  # a name the classes left alone read cannot be bound again
        return Result(code, FileReport(path, findings=[_unbindable(rebound, spans, left, path, options.target)]))
    report = _report(_outside(result.report, spans, left), first.report, found)
    report.marked = {name: line for name, line in marked.items() if name}
    parts = left | {"": why[""]} if "" in marked else left
    broken = _broken(first.report, found, spans, set(parts), not found.whole_file)
    report.findings += _left_findings(spans, parts, broken, path, options)
    return Result(result.code, report)


@dataclass(frozen=True)
class _Why:
    """The class a comment leaves alone, the comment's line and spelling, and its file ("": this one)."""

    qualname: str
    line: int
    spelling: str
    file: str = ""

    def said(self) -> str:
        where = f"{self.file}:{self.line}" if self.file else f"line {self.line}"
        return f"`{self.spelling}` ({where})" if self.spelling else f"a comment at {where}"


def _remote(hit, rest: dict) -> _Why:
    """Why a class is left alone for a comment in another file: that file, seen from this one's folder."""
    project, found = rest["project"], rest["project"].find(hit.module)
    mine = project.find(rest["module"])
    shown = os.path.relpath(found, os.path.dirname(mine)) if found is not None and mine is not None else hit.module
    return _Why(hit.qualname, hit.line, "", shown)


def _marked(found: Marks, report: FileReport, spans: list[Span]) -> dict[str, int]:
    """The classes a comment in this file leaves alone ("": module-level code), each
    with the comment's line: every class of a ``skip-file``, a class whose first
    line says ``skip``, and the class of each change a comment covers."""
    if found.whole_file:
        return {span.qualname: found.file_line for span in spans} | {"": found.file_line}
    marked = {
        span.qualname: span.first for span in spans if span.first in found.lines and found.lines[span.first] is None
    }
    for change in report.changes:
        line = found.mark_line(change.line, change.rule)
        if line is not None:
            marked.setdefault(owner(spans, change.line), line)
    return marked


def _left(families: dict[str, str], kin: dict[str, frozenset[str]], spans: list[Span], why: dict[str, _Why]) -> dict:
    """Every class of the file whose family (here, ``families``, or across the tree,
    ``kin``) reaches a class left alone, and why; with the classes nested in each."""
    roots = {families.get(name, name): reason for name, reason in why.items() if name}
    left = {name: roots[root] for name, root in families.items() if root in roots}
    left |= {name: reason for name, reason in why.items() if name}
    for name, reason in list(left.items()):
        for other in kin.get(name, ()):
            left.setdefault(other, reason)
    for name in list(left):  # what joined across the tree brings its own family here
        for other, root in families.items():
            if root == families.get(name, name):
                left.setdefault(other, left[name])
    for span in spans:
        outer = next((name for name in left if span.qualname.startswith(name + ".")), None)
        if outer is not None:
            left.setdefault(span.qualname, left[outer])
    return left


def _without(run, code: str, path: str, options, rest: dict, plan: tuple):
    """The file migrated without the classes left alone (and, where a comment covers
    module-level code, without module-wide renames), those classes put back as found:
    (the result, the names bound again for them), or (None, the name that cannot be)."""
    from .kept_classes import Unbindable, kept

    families, left, module_left, whole_file = plan
    if whole_file:
        return Result(code, FileReport(path)), []
    chosen = frozenset({"", *families} - set(left) - ({""} if module_left else set()))
    result = run(code, path, replace(options, classes=chosen), **rest)
    try:
        new_code, rebound = kept(code, result.code, path, set(left))
    except Unbindable as error:
        return None, error
    if new_code != result.code:
        check_output(code, new_code, path)
    return Result(new_code, result.report), rebound


def _outermost(spans: list[Span], names, line: int) -> str | None:
    """The outermost class of ``names`` whose statement holds ``line`` ("" : ``names``
    holds "" and the line is in module-level code; None: neither)."""
    held = next((span.qualname for span in spans if span.qualname in names and span.start <= line <= span.last), None)
    if held is None and "" in names and not owner(spans, line):
        return ""
    return held


def _outside(report: FileReport, spans: list[Span], left: dict) -> FileReport:
    """The report without the changes made inside the classes put back."""
    return replace(report, changes=[c for c in report.changes if _outermost(spans, left, c.line) is None])


def _broken(first: FileReport, found: Marks, spans: list[Span], left: set[str], rebound_bases: bool) -> dict:
    """What the migration would do in each part left alone, for it to work under
    the target: each class's, and module-level code's ("") where a comment leaves
    it; and the errors it reports there that no comment covers (one that does is
    a person's word that the code works: kept quiet). A base renamed at a use is
    no such need where the name is bound again (``rebound_bases``), but an
    attribute naming it is."""
    from .kept_classes import RENAMED_BASES

    renames = {rule.code for _, rule in RENAMED_BASES.values()}
    needs: dict[str, list[str]] = {}
    for line, rule, what in [(c.line, c.rule, c.action) for c in first.changes] + [
        (f.line, f.rule, f.message) for f in first.findings if f.is_error and not found.covers(f.line, f.rule)
    ]:
        part = _outermost(spans, left, line)
        span = next((s for s in spans if s.qualname == part), None)
        if part is None or (
            rebound_bases and rule in renames and span is not None and not attributes_named(span, RENAMED_BASES)
        ):
            continue
        needs.setdefault(part, []).append(f"{rule} {what} (line {line})".strip())
    return needs


def _left_findings(spans: list[Span], left: dict, broken: dict, path: str, options) -> list[Finding]:
    """A finding on each class left alone: an error where it fails under the target
    as it stands, else a note on each class a comment elsewhere leaves alone with it."""
    lines = {span.qualname: span.first for span in spans}
    found = []
    for name, why in left.items():
        line = lines.get(name, why.line)
        subject = f"`{name}` is" if name else "module-level code is"
        how = (
            f"by {why.said()}"
            if why.qualname == name and not why.file
            else f"with `{why.qualname}`, which {why.said()} leaves alone"
        )
        if name in broken:
            needs = broken[name]
            more = f" (and {len(needs) - 1} more)" if len(needs) > 1 else ""
            found.append(
                Finding(
                    path,
                    line,
                    f"{subject} left as written {how}, and {LEFT_BROKEN} (jax {format_version(options.target)}): "
                    f"{needs[0]}{more} is not done; port it by hand, or remove the comment",
                    severity=ERROR,
                )
            )
        elif why.qualname != name or why.file:
            found.append(
                Finding(path, line, f"{subject} left as written {how}: a family is migrated whole or not at all")
            )
    return found


def _rebinding(name: str, target) -> str:
    """How to bind ``name`` again for the class left alone: the base it is at ``target``."""
    from .kept_classes import RENAMED_BASES

    new = name
    while new in RENAMED_BASES and RENAMED_BASES[new][1].since <= target:
        new = RENAMED_BASES[new][0]
    if new == name:
        return "port the class by hand"
    return f"bind it where the class reads it (`from jax.experimental.hijax import {new} as {name}`)"


def _unbindable(error, spans: list[Span], left: dict, path: str, target) -> Finding:
    """The refusal: a class left alone reads a name the rest of the migration no longer binds."""
    import ast

    reader = next(
        (
            span
            for span in spans
            if span.qualname in left
            and any(isinstance(node, ast.Name) and node.id == error.name for node in ast.walk(span.node))
        ),
        None,
    )
    name = reader.qualname if reader is not None else next(iter(left), "")
    why = left.get(name)
    return Finding(
        path,
        reader.first if reader is not None else error.line,
        f"`{name}` is left as written{f' by {why.said()}' if why else ''} and reads `{error.name}`, which the "
        "migration of the rest of the file renames and cannot bind again for it: the file is left as written, "
        f"and {LEFT_BROKEN}; {_rebinding(error.name, target)}, or remove the comment",
        severity=ERROR,
    )


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
