"""``verify.keep``: which unsafe fixes a verify run keeps, against a simulated
test suite whose every outcome follows from the groups applied.

A drawn world: tests that fail before any fix; groups (a family's unsafe
fixes each) that fix some tests, break others alone, and sets of groups that
break a test only together. The decisions must keep no group that breaks a
test alone, keep every group that takes part in no break, leave a kept set
that breaks nothing, tell each kept group's changed tests exactly, and run
each set of groups once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hijax_migrate.verify.keep import DROPPED, KEPT, TIMED_OUT, UNEXERCISED, UNPROVEN, broken, decide, kept
from hijax_migrate.verify.outcomes import FAILED, PASSED, Outcomes
from hijax_migrate.verify.process import Ran
from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = [f"tests/test_ops.py::test_{n}" for n in range(8)]


@dataclass
class World:
    failing: set[str]  # before any unsafe fix (the safe migration's outcome)
    fixes: dict[str, set[str]]  # group -> tests it makes pass
    breaks: dict[str, set[str]]  # group -> tests it makes fail, alone
    together: list[tuple[frozenset[str], str]] = field(default_factory=list)  # groups -> a test they break
    fixed_together: list[tuple[frozenset[str], str]] = field(default_factory=list)  # groups -> one they fix
    asked: list[frozenset[str]] = field(default_factory=list)

    def run(self, keys: frozenset[str]) -> Outcomes:
        self.asked.append(keys)
        tests = {test: self._outcome(test, keys) for test in TESTS}
        return Outcomes(Ran(int(FAILED in tests.values()), 0.1), tests)

    def _outcome(self, test: str, keys: frozenset[str]) -> str:
        if any(test in self.breaks.get(key, ()) for key in keys):
            return FAILED
        if any(groups <= keys and test == broke for groups, broke in self.together):
            return FAILED
        fixed = any(test in self.fixes.get(key, ()) for key in keys)
        fixed |= any(groups <= keys and test == made for groups, made in self.fixed_together)
        return FAILED if test in self.failing and not fixed else PASSED


def _world(draw) -> tuple[World, list[str]]:
    keys = [f"ops.py: Op{n}" for n in range(draw(st.integers(1, 7)))]
    tests = st.sets(st.sampled_from(TESTS), max_size=2)
    failing = draw(st.sets(st.sampled_from(TESTS)))
    fixes = {key: draw(tests) & failing for key in keys}
    breaks = {key: draw(tests) - failing if draw(st.booleans()) and draw(st.booleans()) else set() for key in keys}
    together = []
    if len(keys) > 1 and draw(st.booleans()):
        pair = frozenset(draw(st.lists(st.sampled_from(keys), min_size=2, max_size=2, unique=True)))
        together.append((pair, draw(st.sampled_from([t for t in TESTS if t not in failing] or TESTS))))
    fixed_together = []
    if len(keys) > 1 and failing and draw(st.booleans()):
        pair = frozenset(draw(st.lists(st.sampled_from(keys), min_size=2, max_size=2, unique=True)))
        fixed_together.append((pair, draw(st.sampled_from(sorted(failing)))))
    return World(failing, fixes, breaks, together, fixed_together), keys


worlds = st.composite(_world)


def _passing(world: World, test: str) -> bool:
    return test not in world.failing


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_no_group_that_breaks_a_test_alone_is_kept(drawn):
    world, keys = drawn
    decisions = {d.key: d for d in decide(keys, world.run)}
    for key in keys:
        if any(_passing(world, test) for test in world.breaks[key]):
            assert decisions[key].verdict == DROPPED
            assert set(decisions[key].tests) & world.breaks[key]


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_the_kept_groups_together_break_nothing(drawn):
    world, keys = drawn
    assert not broken(world.run(frozenset()), world.run(kept(decide(keys, world.run))))


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_a_group_in_no_break_is_kept_where_a_test_shows_it_right_or_none_fails(drawn):
    world, keys = drawn
    decisions = {d.key: d for d in decide(keys, world.run)}
    final = world.run(kept(list(decisions.values())))
    failing = {t for t, state in final.tests.items() if state == FAILED}
    breakers = {k for k in keys if any(_passing(world, t) for t in world.breaks[k])}
    breakers |= {k for groups, test in world.together if _passing(world, test) for k in groups}
    for key in set(keys) - breakers:
        verdict, tests = decisions[key].verdict, set(decisions[key].tests)
        if not world.together and not world.fixed_together:  # alone, a group's changed tests are its fixes
            assert verdict == KEPT if world.fixes[key] else verdict in (UNEXERCISED, UNPROVEN)
            assert tests == (world.fixes[key] or failing)
        if verdict == UNEXERCISED:
            assert not failing


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_where_a_test_still_fails_every_group_kept_is_one_a_test_shows_right(drawn):
    """A wrong rename of a rule that a failing gradient test checks changes nothing: it fails with
    the fix and without it. No such group is kept."""
    world, keys = drawn
    decisions = decide(keys, world.run)
    final = world.run(kept(decisions))
    if any(state == FAILED for state in final.tests.values()):
        assert all(d.verdict == KEPT for d in decisions if d.key in kept(decisions))


def test_a_group_no_test_shows_right_is_dropped_while_a_test_fails():
    world = World({TESTS[1], TESTS[3]}, {"a": {TESTS[1]}, "b": set()}, {})  # test 3 fails whatever is applied
    decisions = {d.key: (d.verdict, d.tests) for d in decide(["a", "b"], world.run)}
    assert decisions == {"a": (KEPT, (TESTS[1],)), "b": (UNPROVEN, (TESTS[3],))}


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_a_kept_group_is_told_only_changes_it_takes_part_in(drawn):
    world, keys = drawn
    for decision in decide(keys, world.run):
        if decision.verdict == KEPT:
            made = world.fixes[decision.key] | {t for g, t in world.fixed_together if decision.key in g}
            assert set(decision.tests) <= made


@settings(max_examples=200, deadline=None)
@given(worlds())
def test_each_set_of_groups_runs_once(drawn):
    world, keys = drawn
    decide(keys, world.run)
    assert len(world.asked) == len(set(world.asked))
    assert len(world.asked) <= 2 + 4 * len(keys) ** 2  # ddmin's bound, and one run a halving


def test_a_pair_that_breaks_a_test_only_together_is_dropped_the_rest_kept():
    keys = ["a", "b", "c", "d"]
    world = World(set(), {"b": set()}, {}, [(frozenset({"a", "d"}), TESTS[0])])
    decisions = {d.key: d.verdict for d in decide(keys, world.run)}
    assert decisions == {"a": DROPPED, "d": DROPPED, "b": UNEXERCISED, "c": UNEXERCISED}


def test_a_fix_that_no_test_exercises_is_told_apart():
    world = World({TESTS[1]}, {"a": {TESTS[1]}, "b": set()}, {})
    decisions = {d.key: (d.verdict, d.tests) for d in decide(["a", "b"], world.run)}
    assert decisions == {"a": (KEPT, (TESTS[1],)), "b": (UNEXERCISED, ())}


def test_a_run_stopped_at_the_timeout_keeps_nothing_it_ran():
    def run(keys):
        return Outcomes(Ran(None if keys else 0, 9.0), {} if keys else {TESTS[0]: PASSED})

    assert [(d.verdict, d.tests) for d in decide(["a"], run)] == [(DROPPED, (TIMED_OUT,))]


def test_a_test_two_groups_fix_only_together_exercises_both():
    world = World({TESTS[2]}, {}, {}, fixed_together=[(frozenset({"b", "c"}), TESTS[2])])
    decisions = {d.key: (d.verdict, d.tests) for d in decide(["a", "b", "c"], world.run)}
    assert decisions == {"a": (UNEXERCISED, ()), "b": (KEPT, (TESTS[2],)), "c": (KEPT, (TESTS[2],))}


def test_a_change_two_groups_make_only_together_is_not_told_of_a_third_between_them():
    world = World({TESTS[2]}, {}, {}, fixed_together=[(frozenset({"b", "c"}), TESTS[2])])
    decisions = {d.key: (d.verdict, d.tests) for d in decide(["b", "a", "c"], world.run)}
    assert decisions == {"a": (UNEXERCISED, ()), "b": (KEPT, (TESTS[2],)), "c": (KEPT, (TESTS[2],))}


def test_the_runs_without_any_fix_are_not_run_again_where_known():
    world = World({TESTS[1]}, {"a": {TESTS[1]}}, {})
    base = world.run(frozenset())
    world.asked.clear()
    assert [d.verdict for d in decide(["a"], world.run, base)] == [KEPT]
    assert frozenset() not in world.asked
