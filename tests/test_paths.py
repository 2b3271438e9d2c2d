"""Path facts (analysis/paths.py, analysis/helpers.py): what each path through a
rule does to each accumulator, read at each return."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hijax_migrate.analysis.paths import Written
from rule_facts import rule_facts

A, N, S, U = Written.ALWAYS, Written.NEVER, Written.SOME, Written.UNKNOWN


def facts_at_returns(source: str) -> list[list[Written]]:
    """Facts of the last function of ``source`` for its accumulators ``a`` and ``b``, at each return;
    calls reach the module's functions by name."""
    defs = {s.name: s for s in ast.parse(textwrap.dedent(source)).body if isinstance(s, ast.FunctionDef)}

    def resolve(call, caller):
        found = defs.get(getattr(call.func, "id", None))
        return (found, 0) if found is not None else "not a function of the module"

    _, facts, returns = rule_facts(source, resolve=resolve)
    return [facts.at(ret) for ret in returns]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("a.accum(1)\nreturn 1, 2", [[A, N]]),
        ("if c:\n    a.accum(1)\nelse:\n    a.accum(2)\nreturn 1, 2", [[A, N]]),
        ("if c:\n    a.accum(1)\nelif d:\n    a.accum(2)\nreturn 1, 2", [[S, N]]),
        ("if c:\n    a.accum(1)\n    return None\nreturn 1, 2", [[A, N], [N, N]]),
        ("for i in c:\n    a.accum(i)\nreturn 1, 2", [[S, N]]),
        ("while True:\n    a.accum(1)\n    break\nreturn 1, 2", [[A, N]]),
        ("try:\n    a.accum(1)\nexcept E:\n    pass\nreturn 1, 2", [[S, N]]),
        ("try:\n    a.accum(1)\nexcept E:\n    raise\nreturn 1, 2", [[A, N]]),
        ("with c:\n    a.accum(1)\nreturn 1, 2", [[S, N]]),
        ("match c:\n    case 1:\n        a.accum(1)\n    case _:\n        a.accum(2)\nreturn 1, 2", [[A, N]]),
        ("match c:\n    case 1:\n        a.accum(1)\n    case 2:\n        a.accum(2)\nreturn 1, 2", [[S, N]]),
        ("if isinstance(a, T) and isinstance(b, T):\n    return None\nreturn 1, 2", [[N, N], [N, N]]),
        ("raise E\nreturn 1, 2", [[N, N]]),  # no path reaches it
    ],
)
def test_each_return_knows_what_every_path_to_it_wrote(body, expected):
    source = "def rule(self, res, g, a, b):\n" + textwrap.indent(body, "    ")
    assert facts_at_returns(source) == expected


HELPERS = """
def once(acc, ct):
    acc.accum(ct)

def twice(acc, ct):
    acc.accum(ct)
    acc.accum(ct)

def maybe(acc, ct):
    if ct is not None:
        acc.accum(ct)

def peek(acc):
    return isinstance(acc, T)

def onward(acc, ct):
    once(acc, ct)

def loop(accs, cts):
    for acc, ct in zip(accs, cts):
        acc.accum(ct)

def strict(accs, cts):
    for acc, ct in zip(accs, cts, strict=True):
        acc.accum(ct)

def again(acc, ct, n):
    if n:
        return again(acc, ct, n - 1)
    acc.accum(ct)
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("once(a, g)", [A, N]),
        ("once(ct=g, acc=a)", [A, N]),
        ("onward(a, g)", [A, N]),
        ("peek(a)", [N, N]),
        ("twice(a, g)", [U, N]),
        ("maybe(a, g)", [U, N]),
        ("unknown(a, g)", [U, N]),
        ("again(a, g, 2)", [U, N]),
        ("loop((a, b), (g, g))", [A, A]),
        ("loop((a, b), (g,))", [U, U]),  # zip stops after a
        ("loop((a, b), cts)", [U, U]),
        ("strict((a, b), cts)", [A, A]),
        ("loop([a], [g])", [A, N]),
    ],
)
def test_a_helper_is_read(call, expected):
    source = HELPERS + f"\ndef rule(self, res, g, a, b):\n    {call}\n    return 1, 2\n"
    assert facts_at_returns(source) == [expected]


def test_a_write_in_a_finally_block_counts_on_the_paths_through_it():
    # (issue 40: the finally block runs as Python runs it; tests/test_flow_paths.py has the rest)
    assert facts_at_returns(
        "def rule(self, res, g, a, b):\n    try:\n        pass\n    finally:\n        a.accum(1)\n    return 1, 2\n"
    ) == [[A, N]]


@pytest.mark.parametrize("statement", ["once(a, g) if c else None", "c and once(a, g)", "x = c or once(a, g)"])
def test_a_helper_called_under_a_condition_in_its_statement_is_unknown(statement):
    source = HELPERS + f"\ndef rule(self, res, g, a, b):\n    {statement}\n    return 1, 2\n"
    assert facts_at_returns(source) == [[U, N]]


@pytest.mark.parametrize(
    "statement", ["x = once(a, g) or c", "if once(a, g):\n        pass", "for i in once(a, g):\n        pass"]
)
def test_a_helper_called_first_in_its_statement_writes(statement):
    source = HELPERS + f"\ndef rule(self, res, g, a, b):\n    {statement}\n    return 1, 2\n"
    assert facts_at_returns(source) == [[A, N]]


def test_a_helper_called_in_a_with_item_writes():
    source = HELPERS + "\ndef rule(self, res, g, a, b):\n    with once(a, g):\n        pass\n    return 1, 2\n"
    assert facts_at_returns(source) == [[A, N]]
