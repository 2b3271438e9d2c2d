"""Turning outcomes into what people and machines read."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass, replace

from ..core.line_breaks import lines_kept
from ..core.model import SUPPRESSED, Finding, Fix, Outcome


@contextlib.contextmanager
def reader_may_leave():
    """Output to a reader that may stop reading (``| head``): once it is
    gone, the rest goes nowhere, with no traceback, and the run ends as it
    would have (warnings, summary, the pin's floor, its exit code)."""
    try:
        yield
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered is flushed there
        os.close(devnull)


# Diff line prefixes and their colours, most specific first.
_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def colorize(diff: str) -> str:
    """The diff with ANSI colours, for a terminal (rendered by rich)."""
    import io

    from rich.console import Console
    from rich.text import Text

    out = io.StringIO()
    console = Console(
        file=out,
        force_terminal=True,
        no_color=False,
        color_system="standard",
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )
    text = Text()
    for line in (kept.rstrip("\r\n") for kept in lines_kept(diff)):
        text.append(line, next((style for prefix, style in _STYLES if line.startswith(prefix)), ""))
        text.append("\n")
    console.print(text, end="")
    return out.getvalue()


# ANSI colours of the labels on stderr, as ruff colours its own.
_LABELS = {"error": "\033[1;31m", "warning": "\033[1;33m", "note": "\033[1;36m"}


def label(severity: str, color: bool = False) -> str:
    return f"{_LABELS[severity]}{severity}\033[0m:" if color and severity in _LABELS else f"{severity}:"


def error_text(outcome: Outcome, color: bool = False) -> str:
    return f"{label('error', color)} {where(outcome.file, outcome.error_line)}: {outcome.error}"


def finding_text(finding: Finding, color: bool = False) -> str:
    """``error: file:line: CODE message`` (or ``note: ...``)."""
    code = f"{finding.rule} " if finding.rule else ""
    return f"{label(finding.severity, color)} {where(finding.file, finding.line)}: {code}{finding.message}"


# A message about one class starts with its name: ``Old: subclasses `HiPrimitive`...``.
_CLASS_PREFIX = re.compile(r"([A-Za-z_][\w.]*): (.+)", re.S)


def grouped_text(findings: list[Finding], color: bool = False) -> list[str]:
    """One line a finding, as ruff prints them; but the same message about
    several classes of one file is one line listing the classes (and their
    lines), where it first stands (JSON keeps one entry a finding)."""
    groups: dict[tuple, list[Finding]] = {}
    for finding in findings:
        match = _CLASS_PREFIX.fullmatch(finding.message)
        key = (finding.file, finding.rule, finding.severity, match.group(2)) if match else (id(finding),)
        groups.setdefault(key, []).append(finding)
    return [_group_text(group, color) for group in groups.values()]


def _group_text(group: list[Finding], color: bool) -> str:
    first = group[0]
    if len(group) == 1:
        return finding_text(first, color)
    names = ", ".join(dict.fromkeys(_CLASS_PREFIX.fullmatch(f.message).group(1) for f in group))
    lines = ", ".join(str(line) for line in dict.fromkeys(f.line for f in group))
    rest = _CLASS_PREFIX.fullmatch(first.message).group(2)
    return finding_text(replace(first, message=f"{names} (lines {lines}): {rest}"), color)


def wants_color(stream, flag: str = "auto") -> bool:
    """``--color``, then ``NO_COLOR`` (set and not empty: never), then
    ``FORCE_COLOR`` (set and not empty: always), then: is it a terminal?"""
    if flag != "auto":
        return flag == "always"
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or stream.isatty()


def shown(findings: list[Finding]) -> list[Finding]:
    """The findings a person reads: those no comment in the code suppressed."""
    return [f for f in findings if f.severity != SUPPRESSED]


def has_errors(outcome: Outcome) -> bool:
    """A finding says the file will not work on the target as it stands."""
    return any(f.is_error for f in outcome.findings)


@dataclass
class Totals:
    """What the summary counts, for text and JSON alike."""

    changed: int
    written: int  # what --in-place really wrote: a file that failed to write is not counted
    failed: int
    primitives: int
    warnings: int
    errors: int  # of the warnings, those that will not work on the target
    rules: Counter  # (code, name) -> changes
    suppressed: int = 0  # findings a comment in the code silenced

    @classmethod
    def of(cls, outcomes: list[Outcome]) -> Totals:
        return cls(
            changed=sum(o.changed for o in outcomes),
            written=sum(o.written for o in outcomes),
            failed=sum(bool(o.error) for o in outcomes),
            primitives=sum(_primitives(o) for o in outcomes),
            warnings=sum(len(shown(o.findings)) for o in outcomes),
            errors=sum(f.is_error for o in outcomes for f in o.findings),
            rules=Counter((c.rule, c.name) for o in outcomes for c in o.changes),
            suppressed=sum(f.severity == SUPPRESSED for o in outcomes for f in o.findings),
        )


def _primitives(outcome: Outcome) -> int:
    """The file's hijax classes, counting each class a change rewrites (a
    mixin or base of primitives the recognition does not count alone)."""
    return max(outcome.primitives, len({c.cls for c in outcome.changes if c.cls}))


def summary(outcomes: list[Outcome], scanned: int, target: str, in_place: bool, named: bool = True) -> str:
    """What was done, then what is left, naming only what there is: never
    "0 errors" after an ``error:`` line, nor rule counts for no file. The
    target's line, unless ``named`` is False (a run that named it at its start)."""
    totals = Totals.of(outcomes)
    verb = "migrated" if in_place else "would migrate"
    done = [o for o in outcomes if (o.written if in_place else o.changed)]
    left = [
        _n(totals.errors, "error") + " left to fix by hand" if totals.errors else "",
        _n(totals.warnings - totals.errors, "note") if totals.warnings > totals.errors else "",
        f"{totals.suppressed} suppressed" if totals.suppressed else "",
        _n(totals.failed, "file") + " could not be processed" if totals.failed else "",
    ]
    head = (
        f"{_n(scanned, 'file')} scanned, {_n(totals.primitives, 'primitive')} found, "
        f"{verb} {_n(len(done), 'file')}; {', '.join(filter(None, left)) or 'nothing left to fix'}"
    )
    lines = [head, *_left_broken(outcomes), *unsafe_hint(outcomes), *([f"target: {target}"] if named else [])]
    rules = Counter((c.rule, c.name) for o in done for c in o.changes)
    lines += [f"  {code} {name}: {count}" for (code, name), count in sorted(rules.items())]
    return "\n".join(lines)


def left_failing(outcomes: list[Outcome]) -> list[str]:
    """``file:line`` of each place a suppression leaves failing under the target (``engine.suppress``)."""
    from ..engine.suppress import LEFT_BROKEN

    return [where(f.file, f.line) for o in outcomes for f in o.findings if f.is_error and LEFT_BROKEN in f.message]


def _left_broken(outcomes: list[Outcome]) -> list[str]:
    """The summary's line naming them (none: no line)."""
    places = left_failing(outcomes)
    if not places:
        return []
    shown = ", ".join(places[:10]) + (f" and {len(places) - 10} more" if len(places) > 10 else "")
    return [f"left failing under the target by a suppression: {shown}"]


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _place(entry) -> dict:
    """``line``, and ``cell`` (None outside notebooks, whose ``line`` is then
    the line in the cell)."""
    return {"line": entry.cell_line if entry.cell else entry.line, "cell": entry.cell or None}


def _in_order(entries):
    """A file's entries by cell and line, as they stand in the file."""
    return sorted(entries, key=lambda e: (e.cell or 0, e.cell_line if e.cell else e.line))


def as_json(
    outcomes: list[Outcome],
    scanned: int,
    target: str,
    notes: tuple[str, ...] = (),
    origin: dict | None = None,
    unsafe: bool = False,
) -> str:
    """One document; ``origin`` (the target, its source, whether the project
    pins it) comes first, before the findings. A finding's unsafe fix is
    given where it has one, and with ``unsafe`` (``--unsafe-fixes``) every
    finding says whether it has one (``"fix": null``: none)."""
    changes = [asdict(c) | {"class": c.cls} | _place(c) for o in outcomes for c in _in_order(o.changes)]
    for change in changes:
        del change["cls"], change["cell_line"]
    warnings = [
        {"file": f.file, **_place(f), "message": f.message, "rule": f.rule, "severity": f.severity}
        | ({"fix": _fix(f.fix)} if f.fix is not None or unsafe else {})
        for o in outcomes
        for f in _in_order(shown(o.findings))
    ]
    errors = [{"file": o.file, "line": o.error_line, "message": o.error} for o in outcomes if o.error]
    totals = Totals.of(outcomes)
    doc = ({"target": origin} if origin else {}) | {
        "changes": changes,
        "warnings": warnings,
        "errors": errors,
        "summary": {
            "files_scanned": scanned,
            "files_changed": totals.changed,
            "files_written": totals.written,
            "files_failed": totals.failed,
            "primitives": totals.primitives,
            "warnings": totals.warnings,
            "warning_errors": totals.errors,
            "suppressed": totals.suppressed,
            "left_failing_by_suppressions": left_failing(outcomes),
            "rules": {code: n for (code, _), n in sorted(totals.rules.items())},
            "target": target,
            "notes": list(notes),
        },
    }
    hidden, applied = unsafe_counts(outcomes)
    if unsafe or hidden or applied:
        doc["summary"]["unsafe_fixes"] = {"hidden": hidden, "applied": applied}
    return json.dumps(doc, indent=2)


def _fix(fix: Fix | None) -> dict | None:
    """A fix as ruff's JSON gives one: its applicability first; then what it does, why it is not
    proven, the lines it renames, whether it was applied, and the file's diff with it."""
    if fix is None:
        return None
    return {"applicability": fix.applicability, "message": fix.message, "reason": fix.reason} | {
        "lines": list(fix.lines),
        "applied": fix.applied,
        "diff": fix.diff,
    }


def unsafe_counts(outcomes: list[Outcome]) -> tuple[int, int]:
    """The findings whose unsafe fix ``--unsafe-fixes`` would apply (hidden), and those it applied."""
    fixes = [f.fix for o in outcomes for f in shown(o.findings) if f.fix is not None]
    return sum(not fix.applied for fix in fixes), sum(fix.applied for fix in fixes)


def unsafe_hint(outcomes: list[Outcome]) -> list[str]:
    """ruff's line on the fixes a run hides (none: no line)."""
    hidden, _ = unsafe_counts(outcomes)
    if not hidden:
        return []
    return [f"{hidden} hidden fix{'' if hidden == 1 else 'es'} can be enabled with the `--unsafe-fixes` option"]


def _escape(text: str) -> str:
    """A workflow command's message: ``%``, ``\\r`` and ``\\n`` escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A property's value (file, title): ``:`` and ``,`` end one, so they too."""
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def where(file: str, line: int) -> str:
    """``file:line``, or the file alone where there is no line (a notebook cell)."""
    return f"{file}:{line}" if line else file


def _annotation(level: str, file: str, line: int, title: str, message: str) -> str:
    props = {"file": file, "line": str(line) if line else "", "title": title}
    at = ",".join(f"{key}={_escape_property(value)}" for key, value in props.items() if value)
    return f"::{level} {at}::{_escape(message)}"


def as_github(outcomes: list[Outcome], notes: tuple[str, ...] = (), origin: dict | None = None) -> str:
    lines = _target_annotations(origin) if origin else []
    lines += [f"::notice title=hijax-migrate::{_escape(note.removeprefix('note: '))}" for note in notes]
    names = rule_names()
    for o in outcomes:
        lines += [_annotation("warning", o.file, c.line, f"{c.rule} {c.name}", _change_text(o, c)) for c in o.changes]
        lines += [
            _annotation("error" if f.is_error else "warning", o.file, f.line, _title(f, names), f.message)
            for f in shown(o.findings)
        ]
        if o.error:
            lines.append(_annotation("error", o.file, o.error_line, "hijax-migrate", o.error))
    return "\n".join(lines)


def _change_text(outcome: Outcome, change) -> str:
    """A change as what it is: pending (worded so), or written."""
    if outcome.written:
        return f"migrated: {change.action}"
    return f"would migrate: {change.action} (pending; run hijax-migrate --in-place to write it)"


def rule_names() -> dict[str, str]:
    from ..rules.registry import all_rules

    return {rule.code: rule.name for rule in all_rules()} | {"HJX100": "unused-suppression"}


def _title(finding: Finding, names: dict[str, str]) -> str:
    """An annotation's title: the rule's code and name, as a change's has them."""
    if not finding.rule:
        return "hijax-migrate"
    return f"{finding.rule} {names[finding.rule]}" if finding.rule in names else finding.rule


def _target_annotations(origin: dict) -> list[str]:
    """A warning when the project does not pin its target (an annotation on
    every pull request for a pinned one would be noise: the JSON holds it)."""
    if not origin.get("warning"):
        return []
    named = f"jax {origin['jax']} ({origin['source']})"
    return [f"::warning title=hijax-migrate target::{_escape(f'target: {named}; ' + origin['warning'])}"]
