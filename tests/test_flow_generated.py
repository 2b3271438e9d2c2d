"""Generated rules, run as Python runs them, against the path facts (issue 40).

Each program is a rule body built from writes, returns, ``if``, loops of known
(``range(n)``, tuple displays, ``zip``) and unknown count, ``try``/``finally`` nests
whose ``finally`` blocks may return, break, continue or raise, ``try``/``except``,
``break``, ``continue`` and ``raise``. It runs under many choices of its conditions;
each run's outcome must be one the facts allow: the return that exits is an exit, with
the count of writes seen among its counts; a return whose value a ``finally`` dropped
is ``discarded`` or ``mixed``; one the facts call discarded never exits. A program
with one path only (no condition, no unknown loop, no ``try``) has exactly its run's facts.
"""

from __future__ import annotations

import random
import textwrap

from hijax_migrate.analysis.paths import MANY
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_facts import rule_facts

BUILTINS = {"range", "zip", "enumerate"}


class Program:
    """A random rule body; ``one_path``: nothing in it decides between paths."""

    def __init__(self, rng: random.Random):
        self.rng, self.returns, self.conditions, self.one_path = rng, 0, 0, True

    def block(self, depth: int, in_loop: bool) -> list[str]:
        lines = []
        for _ in range(self.rng.randint(1, 3)):
            lines += self.statement(depth, in_loop)
        return lines

    def statement(self, depth: int, in_loop: bool) -> list[str]:
        simple = ["write", "write", "return", "raise"] + (["break", "continue"] if in_loop else [])
        kinds = simple + (["if", "known", "unknown", "finally", "finally", "except"] if depth < 3 else [])
        kind = self.rng.choice(kinds)
        if kind == "write":
            return ["a.accum(1)"]
        if kind == "return":
            self.returns += 1
            return [f"return (hit({self.returns}),)"]
        if kind in ("raise", "if", "unknown", "except", "finally"):
            self.one_path = False
        if kind in ("raise", "break", "continue"):
            return ["raise E" if kind == "raise" else kind]
        if kind == "if":
            self.conditions += 1
            head = [f"if c[{self.conditions - 1}]:"]
            return head + self.nested(depth, in_loop) + ["else:"] + self.nested(depth, in_loop)
        if kind in ("known", "unknown"):
            head = self.rng.choice(["range(0)", "range(1)", "range(2)", "(1,)", "[]", "zip((1, 2), (3,))"])
            return [f"for _ in {head if kind == 'known' else 'it'}:"] + self.nested(depth, True)
        if kind == "except":
            return ["try:"] + self.nested(depth, in_loop) + ["except E:"] + self.nested(depth, in_loop)
        return ["try:"] + self.nested(depth, in_loop) + ["finally:"] + self.nested(depth, in_loop)

    def nested(self, depth: int, in_loop: bool) -> list[str]:
        return ["    " + line for line in self.block(depth + 1, in_loop)]


class Acc:
    def __init__(self):
        self.count = 0

    def accum(self, value):
        self.count += 1


def facts_of_rule(source: str):
    return rule_facts(source, accs=("a",), builtins=BUILTINS)


def run(rule, rng: random.Random, conditions: int):
    """(the number of the return that exits, None off the end, "raised"; the returns run; the writes)."""
    hits, acc = [], Acc()

    def hit(k):
        hits.append(k)
        return k

    scope = rule.__globals__
    scope.update(hit=hit, c=[rng.random() < 0.5 for _ in range(conditions)], it=[0] * rng.randint(0, 2))
    try:
        got = rule(None, None, None, acc)
    except ValueError:
        return "raised", hits, acc.count
    return (got[0] if got is not None else None), hits, acc.count


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_generated_rules_run_as_their_facts_say(seed):
    rng = random.Random(seed)
    program = Program(rng)
    body = program.block(0, False)
    source = "def rule(self, res, g, a):\n" + textwrap.indent("\n".join(body), "    ") + "\n"
    func, facts, returns = facts_of_rule(source)
    scope = {"E": ValueError}
    exec(source, scope)
    seen = set()
    for _ in range(24):
        exit_, hits, writes = run(scope["rule"], rng, program.conditions)
        count = min(writes, MANY)
        if exit_ != "raised":
            node = func if exit_ is None else returns[exit_ - 1]
            assert node in facts.exits, (source, exit_)
            assert count in facts.exits[node][0], (source, exit_, writes, facts.exits[node])
            assert exit_ is None or node not in facts.discarded or node in facts.mixed, (source, exit_)
            seen.add((node, count))
        dropped = list(hits)
        if exit_ not in (None, "raised"):
            dropped.remove(exit_)  # the last one run: the others' values were dropped by a finally
        for k in dropped:
            assert returns[k - 1] in facts.discarded or returns[k - 1] in facts.mixed, (source, k)
    if program.one_path:
        assert {(node, c) for node, state in facts.exits.items() for c in state[0]} == seen, source
        assert not facts.discarded and not facts.mixed, source
