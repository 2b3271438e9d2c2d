"""Each test's outcome before and after the migration, and what it says.

- fixed: failed before, passes after;
- broken: fails after, and did not fail before (passed, was skipped, or did
  not run): the migration is not proved, and nothing is written;
- still failing: failed before and after;
- unchanged: the same outcome on both sides;
- not compared: run (or not skipped) on one side only, failing on neither.

Where a side recorded no test (a command that is not pytest or unittest, a
runner that never started), its exit code speaks for it, as one row; so it
does when the after run fails and no test says why. A run stopped at the
timeout has no exit code to speak: it proves nothing (see ``flow.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .outcomes import FAILED, PASSED, Outcomes

FIXED, BROKEN, STILL_FAILING, UNCHANGED, NOT_COMPARED = (
    "fixed",
    "broken",
    "still failing",
    "unchanged",
    "not compared",
)
VERDICTS = (BROKEN, FIXED, STILL_FAILING, NOT_COMPARED, UNCHANGED)  # the order they are shown in
EXIT_CODE = "(exit code)"  # the row that stands for the whole command


@dataclass(frozen=True)
class Row:
    test: str
    before: str | None  # passed, failed, skipped, or None: not run
    after: str | None
    verdict: str


def verdict(before: str | None, after: str | None) -> str:
    if after == FAILED:
        return STILL_FAILING if before == FAILED else BROKEN
    if before == after:
        return UNCHANGED
    return FIXED if (before, after) == (FAILED, PASSED) else NOT_COMPARED


def rows(before: Outcomes, after: Outcomes) -> list[Row]:
    tests = set(before.tests) | set(after.tests)
    # A module one side could not collect is told by its tests the other side ran.
    tests -= {m for m in before.uncollected if after.covers(m)} | {m for m in after.uncollected if before.covers(m)}
    found = [Row(t, before.of(t), after.of(t), verdict(before.of(t), after.of(t))) for t in sorted(tests)]
    whole = Row(EXIT_CODE, _by_code(before), _by_code(after), verdict(_by_code(before), _by_code(after)))
    if before.ran.timed_out or after.ran.timed_out:
        return found  # an exit code that is no outcome
    silent = not before.tests or not after.tests
    if silent or (whole.verdict == BROKEN and not any(row.verdict == BROKEN for row in found)):
        found.append(whole)
    return found


def _by_code(outcomes: Outcomes) -> str:
    return PASSED if outcomes.ran.code == 0 else FAILED


def counts(found: list[Row]) -> Counter:
    return Counter(row.verdict for row in found)
