"""Suppression comments as ruff handles its own: ``--add-noqa`` writes a
``# noqa: CODE`` at each remaining error, and ``HJX100`` (as ruff's RUF100)
reports the comments that suppress nothing.

Only Python files (``.py``, ``.pyi``): a notebook's cell or a Markdown fence
is left as it is, with a warning. A comment is added only where the module's
``ast`` stays the same (never inside a string, never after a backslash), and
a file is written atomically and only if unchanged since the run read it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from ..core.model import NOTE, SUPPRESSED, Finding, Outcome

_PYTHON = (".py", ".pyi")
_NOQA = re.compile(rb"#\s*noqa:\s*([\w\s,]*\w)", re.IGNORECASE)


def add_noqa(outcomes: list[Outcome], paths: dict[str, Path]) -> tuple[int, list[str]]:
    """A ``# noqa: CODE`` at the line of each error left: how many lines
    gained one, and a warning for each file that could not take them."""
    added, problems = 0, []
    for outcome in outcomes:
        wanted = _wanted(outcome)
        path = paths.get(outcome.file)
        if not wanted or path is None:
            continue
        if path.suffix not in _PYTHON:
            problems.append(f"{outcome.file}: a notebook or Markdown document: no noqa comment added")
            continue
        count, problem = _add_to_file(path, wanted)
        added += count
        problems += [f"{outcome.file}: {problem}"] if problem else []
    return added, problems


def _wanted(outcome: Outcome) -> dict[int, set[str]]:
    """line -> the codes of the errors there."""
    wanted: dict[int, set[str]] = {}
    for finding in outcome.findings:
        if finding.is_error and finding.rule and finding.line and not finding.cell:
            wanted.setdefault(finding.line, set()).add(finding.rule)
    return wanted


def _add_to_file(path: Path, wanted: dict[int, set[str]]) -> tuple[int, str]:
    from ..core.errors import SourceError
    from ..sources.files import read_source, write_atomic

    try:
        source = read_source(path)
    except (SourceError, OSError) as error:
        return 0, str(error)
    if not source.encoding.replace("_", "-").lower().startswith("utf-8") and source.encoding != "ascii":
        return 0, f"encoded in {source.encoding}: no noqa comment added"
    lines = source.raw.splitlines(keepends=True)
    closed = _commentable(source.text)
    places = [line for line in sorted(wanted) if line in closed and line <= len(lines)]
    problem = "" if len(places) == len(wanted) else "a line in a string or after a backslash cannot take a comment"
    changed = 0
    for line in places:
        new = _with_codes(lines[line - 1], wanted[line])
        changed, lines[line - 1] = changed + (new != lines[line - 1]), new
    data = b"".join(lines)
    if not changed:
        return 0, problem
    if not _same_code(source.raw, data):
        return 0, "a comment would change the code: no noqa comment added"
    try:
        write_atomic(source, data)
    except (SourceError, OSError) as error:
        return 0, str(error)
    return changed, problem


def _commentable(text: str) -> set[int]:
    """The lines whose end is code, where a comment may go: not inside a
    string that goes on to the next line, not after a backslash."""
    lines = set(range(1, text.count("\n") + 2))
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] < token.end[0]:  # a string (or its part) over several lines
                lines -= set(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return {n for n, line in enumerate(text.splitlines(), 1) if n in lines and not line.rstrip().endswith("\\")}


def _with_codes(line: bytes, codes: set[str]) -> bytes:
    """The line with the codes in its ``# noqa:`` comment, or a new one at its end."""
    body = line.rstrip(b"\r\n")
    end = line[len(body) :]
    found = _NOQA.search(body)
    if found:
        have = [c for c in re.split(rb"[\s,]+", found.group(1)) if c]
        new = [c.encode() for c in sorted(codes) if c.encode() not in {h.upper() for h in have}]
        if not new:
            return line
        return body[: found.end(1)] + b", " + b", ".join(new) + body[found.end(1) :] + end
    return body.rstrip() + b"  # noqa: " + ", ".join(sorted(codes)).encode() + end


def _same_code(before: bytes, after: bytes) -> bool:
    try:
        return ast.dump(ast.parse(before)) == ast.dump(ast.parse(after))
    except (SyntaxError, ValueError):
        return False


def unused(outcomes: list[Outcome], paths: dict[str, Path]) -> None:
    """``HJX100``: a note on each suppression comment that suppresses nothing
    (its codes named), added to its file's outcome (one is made for a file
    the run did not report)."""
    by_file = {o.file: o for o in outcomes}
    for display, path in paths.items():
        if path.suffix not in _PYTHON:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        outcome = by_file.get(display)
        found = _unused_in(text, display, outcome, outcomes)
        if found and outcome is None:
            outcome = by_file[display] = Outcome(display)
            outcomes.append(outcome)
        if found:
            outcome.findings.extend(found)


def _unused_in(text: str, display: str, outcome: Outcome | None, outcomes: list[Outcome]) -> list[Finding]:
    from ..engine.suppress import marks

    found = marks(text)
    if found is None:
        return []
    quiet = [f for f in (outcome.findings if outcome else []) if f.severity == SUPPRESSED]
    named = " ".join(f.message for o in outcomes for f in o.findings)  # a comment another file's class names
    notes = []
    for line, codes in sorted(found.lines.items()):
        covered = {f.rule for f in quiet if found.mark_line(f.line, f.rule) == line}
        idle = sorted(codes - covered) if codes is not None else ([] if covered else ["every rule"])
        if idle and not _named_elsewhere(named, display, line):
            spelling = found.spelling(line)
            message = f"unused suppression `{spelling}`: nothing of {', '.join(idle)} is suppressed here at the target"
            notes.append(Finding(display, line, message, "HJX100", severity=NOTE))
    return notes


def _named_elsewhere(messages: str, display: str, line: int) -> bool:
    """A note of another file names this comment (it leaves a class of that file alone)."""
    return f"{Path(display).name}:{line})" in messages
