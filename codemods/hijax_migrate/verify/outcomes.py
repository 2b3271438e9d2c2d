"""What one run of CMD says: each test's outcome, read from the probes'
records, and the exit code.

A test is ``failed`` when any of its phases failed (setup, call, teardown),
``skipped`` when it was skipped or an expected failure, else ``passed``. A
module that pytest could not collect is ``failed`` under its own id, and
stands for its tests: a test the other side ran in it counts as failed here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .process import Ran

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"
_RANK = {PASSED: 0, SKIPPED: 1, FAILED: 2}  # a test's outcome: its worst phase's


@dataclass
class Outcomes:
    ran: Ran
    tests: dict[str, str] = field(default_factory=dict)  # id -> passed, failed or skipped
    uncollected: set[str] = field(default_factory=set)  # modules pytest could not collect

    def of(self, test: str) -> str | None:
        """The test's outcome here: its own, its module's failure, or None (not run)."""
        if test in self.tests:
            return self.tests[test]
        return FAILED if any(test.startswith(m + "::") for m in self.uncollected) else None

    def covers(self, module: str) -> bool:
        """Does this side have tests inside ``module``?"""
        return any(test.startswith(module + "::") for test in self.tests)


def read(results: Path, ran: Ran) -> Outcomes:
    outcomes = Outcomes(ran)
    lines = results.read_text(encoding="utf-8").splitlines() if results.exists() else []
    for line in lines:
        try:
            record = json.loads(line)
            test, when, outcome = record["id"], record["when"], record["outcome"]
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a kill at the timeout
        if when == "collect":
            outcomes.uncollected.add(test)
        if outcome in _RANK and _RANK[outcome] >= _RANK[outcomes.tests.get(test, PASSED)]:
            outcomes.tests[test] = outcome
    return outcomes
