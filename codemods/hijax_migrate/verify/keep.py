"""Which unsafe fixes a verify run keeps, by what CMD says with them.

Each group of unsafe fixes (a family's: the files one refusal's rename
touches) is applied over the safe migration in the scratch copy, and CMD is
run there. The groups are kept together where no test breaks against the
safe migration alone (``compare.verdict``: fails now, did not fail then).
Where something breaks, the groups that break it are found as Zeller's
delta debugging (ddmin) finds them, one culprit at a time: a group that
breaks a test alone, or a smallest set of groups that break it only
together (each dropped); the rest are kept and run again, until nothing
breaks.

Of the groups left, those some test's outcome changed with are exercised
and kept (found by halving; a change only some groups make together is each
one's of a smallest such set). The others no test exercises: where every test
passes they are kept, and the report says plainly that nothing checked their
gradient; where a test fails (with them and without them), they are dropped:
a wrong rename of a gradient rule that the failing test checks looks exactly
so, and no run can tell it from a failure of something else.

``run`` stands for CMD over the copy with the given groups applied; each set
of groups is run once (tests are the slow part), and the safe migration
alone (the empty set) is the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .compare import BROKEN, EXIT_CODE, rows
from .outcomes import FAILED, Outcomes

KEPT, UNEXERCISED, DROPPED = "kept", "kept, exercised by no test", "dropped"
UNPROVEN = "dropped, shown right by no test"  # a test fails with it and without it
TIMED_OUT = "(timed out)"  # the row of a run stopped at the timeout

Run = Callable[[frozenset[str]], Outcomes]  # the groups applied, by key -> CMD's outcomes


@dataclass(frozen=True)
class Decision:
    key: str
    verdict: str  # KEPT (exercised), UNEXERCISED or DROPPED
    tests: tuple[str, ...]  # kept: the tests whose outcome changed with it; dropped: those it broke


def decide(keys: Sequence[str], run: Run, base: Outcomes | None = None) -> list[Decision]:
    """Each group's decision, in the order of ``keys``; ``base``: CMD's outcomes with none
    applied, where known already (else they are run)."""
    runs = _Runs(run, base)
    kept, dropped, outcome = _without_breakers(list(keys), runs)
    changed = _attributed(kept, runs, outcome)
    failing = _failing(outcome)
    found = {key: Decision(key, DROPPED, tests) for key, tests in dropped.items()}
    for key in kept:
        tests = changed.get(key, ())
        verdict = KEPT if tests else (UNPROVEN if failing else UNEXERCISED)
        found[key] = Decision(key, verdict, tests or failing)
    return [found[key] for key in keys]


def kept(decisions: list[Decision]) -> frozenset[str]:
    """The groups a run keeps: those some test shows right, and, where no test fails, those none exercises."""
    return frozenset(d.key for d in decisions if d.verdict in (KEPT, UNEXERCISED))


class _Runs:
    """``run``, once a set of groups: the same set asked again is answered from the first run."""

    def __init__(self, run: Run, base: Outcomes | None = None):
        self._run, self._seen = run, {} if base is None else {frozenset(): base}
        self.base = self(frozenset())

    def __call__(self, keys) -> Outcomes:
        keys = frozenset(keys)
        if keys not in self._seen:
            self._seen[keys] = self._run(keys)
        return self._seen[keys]

    @property
    def count(self) -> int:
        return len(self._seen)


def _without_breakers(keys: list[str], runs: _Runs) -> tuple[list[str], dict[str, tuple[str, ...]], Outcomes]:
    """(the groups kept, each group dropped -> the tests it broke, CMD's outcomes with those kept)."""
    dropped: dict[str, tuple[str, ...]] = {}
    while True:
        outcome = runs(keys)
        if not keys or not broken(runs.base, outcome):
            return keys, dropped, outcome
        culprit, tests = _culprit(keys, runs)
        dropped.update((key, tests) for key in culprit)
        keys = [key for key in keys if key not in culprit]


def _culprit(keys: list[str], runs: _Runs) -> tuple[list[str], tuple[str, ...]]:
    """A 1-minimal part of ``keys`` that breaks a test (``_minimal``), with the tests it breaks."""
    part = _minimal(keys, lambda p: bool(broken(runs.base, runs(p))))
    return part, broken(runs.base, runs(part))


def _minimal(keys: list[str], holds: Callable[[list[str]], bool]) -> list[str]:
    """A part of ``keys`` (for which ``holds``) for which ``holds``, 1-minimal:
    without any one of its groups it does not. Zeller's ddmin, over chunks,
    then their complements, then finer chunks."""
    chunks = 2
    while len(keys) > 1:
        parts = _chunks(keys, chunks)
        smaller = next((p for p in parts if holds(p)), None)
        if smaller is not None:
            keys, chunks = smaller, 2
            continue
        rests = [[k for k in keys if k not in part] for part in parts] if chunks > 2 else []
        rest = next((r for r in rests if holds(r)), None)
        if rest is not None:
            keys, chunks = rest, max(chunks - 1, 2)
        elif chunks < len(keys):
            chunks = min(2 * chunks, len(keys))
        else:
            break  # 1-minimal: each group is needed
    return keys


def _chunks(keys: list[str], count: int) -> list[list[str]]:
    size, extra = divmod(len(keys), count)
    bounds = [i * size + min(i, extra) for i in range(count + 1)]
    return [keys[bounds[i] : bounds[i + 1]] for i in range(count)]


def _attributed(keys: list[str], runs: _Runs, outcome: Outcomes) -> dict[str, tuple[str, ...]]:
    """Each group of ``keys`` -> the tests whose outcome changed with it, where
    ``outcome`` is CMD's with them all: by halving; a change neither half makes
    alone belongs to each group of a 1-minimal part that makes it."""
    changed = _changed(runs.base, outcome)
    if not changed or not keys:
        return {}
    if len(keys) == 1:
        return {keys[0]: changed}
    half = len(keys) // 2
    found: dict[str, set[str]] = {}
    for part in (keys[:half], keys[half:]):
        for key, tests in _attributed(part, runs, runs(part)).items():
            found.setdefault(key, set()).update(tests)
    told = {test for tests in found.values() for test in tests}
    for test in (test for test in changed if test not in told):
        for key in _minimal(keys, lambda p, test=test: test in _changed(runs.base, runs(p))):
            found.setdefault(key, set()).add(test)
    return {key: tuple(sorted(tests)) for key, tests in found.items()}


def broken(base: Outcomes, outcome: Outcomes) -> tuple[str, ...]:
    """The tests that fail in ``outcome`` and did not in ``base`` (the exit code
    standing for a command whose tests are not told apart); a run stopped at
    the timeout proves nothing, so it breaks."""
    if outcome.ran.timed_out:
        return (TIMED_OUT,)
    return tuple(row.test for row in rows(base, outcome) if row.verdict == BROKEN)


def _failing(outcome: Outcomes) -> tuple[str, ...]:
    """The tests that fail (the exit code where no test is told apart, or a run stopped at the timeout)."""
    if outcome.ran.timed_out:
        return (TIMED_OUT,)
    found = tuple(sorted({test for test, state in outcome.tests.items() if state == FAILED} | outcome.uncollected))
    return found or ((EXIT_CODE,) if not outcome.tests and outcome.ran.code else ())


def _changed(base: Outcomes, outcome: Outcomes) -> tuple[str, ...]:
    return tuple(row.test for row in rows(base, outcome) if row.before != row.after)
