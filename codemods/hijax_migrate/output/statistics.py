"""ruff's ``--statistics`` and ``--show-fixes``: how many changes and
findings each rule has, and what was changed (or would be) by file and rule."""

from __future__ import annotations

import json
from collections import Counter

from ..core.model import Outcome
from .report import rule_names, shown


def counts(outcomes: list[Outcome]) -> list[dict]:
    """One entry a rule and kind (``change``: the tool makes it; ``error`` or
    ``note``: a finding), most first, then by code."""
    counted = Counter((c.rule, "change") for o in outcomes for c in o.changes)
    counted += Counter((f.rule or "-", f.severity) for o in outcomes for f in shown(o.findings))
    names = rule_names()
    entries = [
        {"code": code, "name": names.get(code, ""), "kind": kind, "count": n, "fixable": kind == "change"}
        for (code, kind), n in counted.items()
    ]
    return sorted(entries, key=lambda e: (-e["count"], e["code"], e["kind"]))


def statistics(outcomes: list[Outcome], fmt: str = "text") -> str:
    """As ruff prints them: count, code, ``[*]`` where the tool makes the change, the rule's name."""
    entries = counts(outcomes)
    if fmt == "json":
        return json.dumps(entries, indent=2)
    return "\n".join(
        f"{e['count']:>5}\t{e['code']:<6}\t[{'*' if e['fixable'] else ' '}] {e['name']} ({e['kind']})" for e in entries
    )


def fixes(outcomes: list[Outcome], written: bool) -> str:
    """``--show-fixes``: the changes by file and rule (a dry run's: those pending)."""
    done = [o for o in outcomes if (o.written if written else o.changed) and o.changes]
    if not done:
        return ""
    names = rule_names()
    total = sum(len(o.changes) for o in done)
    lines = [f"{'Fixed' if written else 'Would fix'} {total} change{'' if total == 1 else 's'}:"]
    for outcome in done:
        lines.append(f"- {outcome.file}:")
        by_rule = Counter(c.rule for c in outcome.changes)
        lines += [f"    {n} × {code} ({names.get(code, '')})" for code, n in sorted(by_rule.items())]
    return "\n".join(lines)
