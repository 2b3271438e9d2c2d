"""The comparison as people and machines read it: a short table (the tests
whose outcome changed or still fails, one line each, and a count of the
unchanged), JSON, or GitHub annotations."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..output.report import _annotation
from .compare import BROKEN, FIXED, NOT_COMPARED, STILL_FAILING, UNCHANGED, VERDICTS, Row, counts
from .keep import DROPPED, KEPT, UNEXERCISED, UNPROVEN
from .outcomes import Outcomes

_STYLES = {FIXED: "green", BROKEN: "bold red", STILL_FAILING: "yellow", NOT_COMPARED: "cyan"}
_LEVELS = {BROKEN: "error", STILL_FAILING: "warning", FIXED: "notice", NOT_COMPARED: "notice"}


@dataclass
class Verification:
    """What a verify run found, for every report."""

    command: str
    python: str | None  # the after side's interpreter, where it is another
    before: Outcomes
    after: Outcomes
    rows: list[Row]
    written: bool = False
    unsafe: object = None  # ``unsafe_fixes.Kept``: each group of unsafe fixes, kept or dropped

    @property
    def stopped(self) -> str:
        """Which run timed out ("" where none did)."""
        return next(
            (
                name
                for name, side in (("before", self.before), ("after", self.after))
                if side.ran.timed_out and side.ran.seconds
            ),
            "",
        )

    def totals(self) -> dict[str, int]:
        found = counts(self.rows)
        return {verdict: found.get(verdict, 0) for verdict in VERDICTS}


def _side(outcomes: Outcomes) -> str:
    ran = outcomes.ran
    if ran.timed_out and not ran.seconds:
        return "not run (the run before timed out)"
    code = (
        f"timed out after {ran.seconds:.1f} s, stopped with its processes"
        if ran.timed_out
        else f"exit {ran.code} in {ran.seconds:.1f} s"
    )
    return f"{code}, {len(outcomes.tests)} test{'' if len(outcomes.tests) == 1 else 's'} recorded"


def _state(state: str | None) -> str:
    return state or "not run"


def as_text(found: Verification, color: bool) -> str:
    width = max([len(row.test) for row in found.rows if row.verdict != UNCHANGED] + [0])
    lines = [
        f"verify: {found.command}",
        f"  before the migration: {_side(found.before)}",
        f"  after the migration:  {_side(found.after)}" + (f" (with {found.python})" if found.python else ""),
    ]
    for verdict in VERDICTS[:-1]:
        lines += [
            _paint(f"  {verdict:<14}", _STYLES[verdict], color)
            + f"{row.test:<{width}}  {_state(row.before)} -> {_state(row.after)}"
            for row in found.rows
            if row.verdict == verdict
        ]
    totals = found.totals()
    if found.stopped:
        lines.append(f"not verified: the run {found.stopped} the migration timed out (--verify-timeout)")
        return "\n".join(lines)
    lines += unsafe_lines(found.unsafe)
    lines.append(
        "verified: "
        + ", ".join(
            _paint(f"{n} {verdict}", _STYLES.get(verdict, ""), color and n > 0) for verdict, n in totals.items()
        )
    )
    return "\n".join(lines)


_SAID = {
    KEPT: "kept: exercised by {tests}",
    UNEXERCISED: "kept, exercised by no test: no test's outcome depended on it, so its gradient is unproven",
    DROPPED: "dropped: it broke {tests}",
    UNPROVEN: "dropped: {tests} fail with it and without it, so no test shows it right (check it by hand)",
}


def unsafe_lines(kept) -> list[str]:
    """One line a group of unsafe fixes (``--unsafe-fixes``): kept and exercised, kept and
    exercised by no test (said plainly: nothing checked its gradient), or dropped."""
    if kept is None:
        return []
    lines = ["  unsafe fixes (--unsafe-fixes), each family's kept only where nothing broke with it:"]
    for decision in kept.decisions:
        said = _SAID[decision.verdict].format(tests=", ".join(decision.tests))
        lines.append(f"    {decision.key}: {said}")
    return lines


def _paint(text: str, style: str, color: bool) -> str:
    """``text`` in ANSI colours (rendered by rich, as the diffs are)."""
    if not color or not style:
        return text
    import io

    from rich.console import Console
    from rich.text import Text

    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="standard", highlight=False, soft_wrap=True).print(
        Text(text, style), end=""
    )
    return out.getvalue()


def as_json(found: Verification, migration: str) -> str:
    def side(outcomes: Outcomes) -> dict:
        return {
            "exit_code": outcomes.ran.code,
            "timed_out": outcomes.ran.timed_out,
            "seconds": round(outcomes.ran.seconds, 3),
            "tests": len(outcomes.tests),
        }

    doc = {
        "migration": json.loads(migration),
        "verify": {
            "command": found.command,
            "python": found.python,
            "before": side(found.before),
            "after": side(found.after),
            "tests": [{"test": r.test, "before": r.before, "after": r.after, "verdict": r.verdict} for r in found.rows],
            "summary": found.totals(),
            "timed_out": found.stopped or None,
            "written": found.written,
        },
    }
    if found.unsafe is not None:
        doc["verify"]["unsafe_fixes"] = [
            {"files": d.key.split(", "), "verdict": d.verdict, "tests": list(d.tests), "applicability": "unsafe"}
            for d in found.unsafe.decisions
        ]
    return json.dumps(doc, indent=2)


def as_github(found: Verification) -> str:
    lines = []
    for row in found.rows:
        if row.verdict in _LEVELS:
            file = row.test.split("::")[0] if ".py::" in row.test or row.test.endswith(".py") else ""
            lines.append(
                _annotation(
                    _LEVELS[row.verdict],
                    file,
                    0,
                    f"hijax-migrate --verify: {row.verdict}",
                    f"{row.test}: {_state(row.before)} before the migration, {_state(row.after)} after",
                )
            )
    lines += _unsafe_annotations(found.unsafe)
    totals = found.totals()
    said = (
        f"not verified: the run {found.stopped} the migration timed out"
        if found.stopped
        else ", ".join(f"{n} {verdict}" for verdict, n in totals.items())
    )
    lines.append(
        _annotation("error" if totals[BROKEN] or found.stopped else "notice", "", 0, "hijax-migrate --verify", said)
    )
    return "\n".join(lines)


_UNSAFE_LEVELS = {KEPT: "notice", UNEXERCISED: "warning", DROPPED: "error", UNPROVEN: "error"}


def _unsafe_annotations(kept) -> list[str]:
    """One annotation a file of each group of unsafe fixes: kept (a notice), kept but exercised
    by no test (a warning: its gradient is unproven), dropped (an error: the refusal stands)."""
    if kept is None:
        return []
    return [
        _annotation(
            _UNSAFE_LEVELS[decision.verdict],
            name,
            0,
            "hijax-migrate --verify: unsafe fix",
            _SAID[decision.verdict].format(tests=", ".join(decision.tests)),
        )
        for decision in kept.decisions
        for name in decision.key.split(", ")  # the group's files, as the migration names them
    ]


def as_json_without_runs(migration: str) -> str:
    """Nothing to migrate: the command was not run."""
    return json.dumps({"migration": json.loads(migration), "verify": None}, indent=2)
