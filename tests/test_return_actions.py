"""What each return of an accumulator rule becomes (rules/return_actions.py), decided from
``ast`` alone: the actions the rewrite applies, the notes, the refusal, by the facts of the
paths reaching each return and the target."""

from __future__ import annotations

import textwrap

import pytest
from hijax_migrate.analysis.accum_uses import Accumulator, Uses
from hijax_migrate.analysis.paths import Written
from hijax_migrate.rules.return_actions import EVALUATE, NONE, TUPLE, WHOLE, RuleReturns, decide
from rule_facts import rule_facts

A, N = Written.ALWAYS, Written.NEVER
NEW, OLD = (0, 12, 0), (0, 10, 2)


def decided(body: str, target=NEW, fresh: bool = False):
    """The decision for ``def rule(self, res, g, a, b)`` with ``body`` (``fresh``: accumulators
    the rewrite adds, never written by the rule), and its returns in order."""
    source = "def rule(self, res, g, a, b):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    func, facts, returns = rule_facts(source, builtins=("tuple",))
    accs = [Accumulator("a"), Accumulator("b")] if fresh else [Uses(func).named(n) for n in ("a", "b")]
    rule = RuleReturns(func, accs, None if fresh else facts, target, {"tuple"}.__contains__, lambda node: node.lineno)
    return decide(rule), returns


def kinds(body: str, **how) -> list:
    found, returns = decided(body, **how)
    assert found.refusal is None, found.refusal
    return [(found.actions[r].kind, found.actions[r].state) if r in found.actions else None for r in returns]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("a.accum(1)\nreturn 1, 2", [(TUPLE, (A, N))]),
        ("return g, g", [(TUPLE, (N, N))]),
        ("a.accum(1)\nb.accum(2)\nreturn tuple(cts)", [(NONE, ())]),  # every accumulator has it: dropped
        ("return ct", [(WHOLE, (N, N))]),
        ("if c:\n    return None\nreturn g, g", [None, (TUPLE, (N, N))]),
        ("try:\n    return g, g\nfinally:\n    return None", [(EVALUATE, ()), None]),
    ],
)
def test_each_return_becomes_what_its_paths_leave(body, expected):
    assert kinds(body) == expected


def test_fresh_accumulators_are_written_by_every_return():
    assert kinds("return g, g", fresh=True) == [(TUPLE, (N, N))]
    assert kinds("return ct", fresh=True) == [(WHOLE, (N, N))]


def test_a_value_that_is_no_tuple_where_every_accumulator_is_written_is_logs():
    found, _ = decided("a.accum(1)\nb.accum(2)\nlogs = f()\nreturn logs")
    assert not found.actions and found.refusal is None
    assert found.notes == [
        "`vjp_bwd` writes every accumulator on every path to the return at line 5, and returns a value "
        "that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and left as written; if it "
        "is cotangents, return None instead"
    ]


def test_before_logs_a_value_is_cotangents_and_logs_are_dropped_only_where_written():
    found, returns = decided("a.accum(1)\nb.accum(2)\nreturn {'x': 1}", target=OLD)
    assert found.actions[returns[0]].kind == NONE
    found, _ = decided("a.accum(1)\nreturn {'x': 1}", target=OLD)
    assert found.refusal.startswith("line 3 returns a dict of backward-pass logs")


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("if c:\n    a.accum(1)\nreturn g, g", "`a` is written on some paths (line 3)"),
        ("f(a)\nreturn g, g", "`a` is handed to a call at line 2"),
        ("a.accum(1)\nreturn ct", "line 3 returns a value that cannot be split per input"),
        ("return g, g, g", "returns 3 cotangents for 2 inputs"),
        ("try:\n    return g, g\nfinally:\n    if c:\n        return None", "the `finally` block at line 2"),
    ],
)
def test_what_cannot_be_decided_is_refused_with_its_lines(body, says):
    found, _ = decided(body)
    assert found.refusal is not None and says in found.refusal, found.refusal


def test_a_refusal_stops_the_decision_and_keeps_the_notes_before_it():
    body = "a.accum(1)\nb.accum(2)\nif c:\n    return logs\nreturn g, g, g"
    found, _ = decided(body)
    assert len(found.notes) == 1 and "returns 3 cotangents" in found.refusal
