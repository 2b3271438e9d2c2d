"""Control flow as Python runs it, in the path facts (analysis/paths.py, issue 40):
``finally`` blocks that return, raise, break or continue, and what each return
then hands back; each case is checked against running the function itself."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hijax_migrate.analysis.paths import Written, ends_abruptly
from rule_facts import rule_facts

A, N, S = Written.ALWAYS, Written.NEVER, Written.SOME


def facts_of_rule(body: str):
    """The facts of ``def rule(self, res, g, a, b)`` with ``body``, and its returns in source order."""
    source = "def rule(self, res, g, a, b):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    _, facts, returns = rule_facts(source)
    return facts, returns


def fates(body: str) -> list[str]:
    """For each return: "exits", "dropped" (a finally always ends otherwise), "mixed", or "unreached"."""
    facts, returns = facts_of_rule(body)
    return [
        "mixed"
        if r in facts.mixed
        else "dropped"
        if r in facts.discarded
        else "exits"
        if r in facts.exits
        else "unreached"
        for r in returns
    ]


FINALLY_CASES = [
    ("try:\n    return 1, 2\nfinally:\n    return 3, 4\n", ["dropped", "exits"]),
    ("try:\n    return 1, 2\nfinally:\n    pass\n", ["exits"]),
    ("try:\n    return 1, 2\nfinally:\n    if c:\n        return 3, 4\n", ["mixed", "exits"]),
    ("try:\n    return 1, 2\nfinally:\n    raise E\n", ["dropped"]),
    ("for i in c:\n    try:\n        return 1, 2\n    finally:\n        break\nreturn 3, 4\n", ["dropped", "exits"]),
    ("for i in c:\n    try:\n        return 1, 2\n    finally:\n        continue\nreturn 3, 4\n", ["dropped", "exits"]),
    # a break of a loop inside the finally block does not leave it
    ("try:\n    return 1, 2\nfinally:\n    for i in c:\n        break\n", ["exits"]),
    # a loop's else runs outside it: its break leaves the finally block
    (
        "for j in d:\n    try:\n        return 1, 2\n    finally:\n        for i in c:\n            pass\n"
        "        else:\n            break\nreturn 3, 4\n",
        ["dropped", "exits"],
    ),
    # nested: the inner finally runs on, the outer one drops it
    (
        "try:\n    try:\n        return 1, 2\n    finally:\n        pass\nfinally:\n    return 3, 4\n",
        ["dropped", "exits"],
    ),
    (
        "try:\n    try:\n        return 1, 2\n    finally:\n        return 5, 6\nfinally:\n    pass\n",
        ["dropped", "exits"],
    ),
    # a return in a handler or an else goes through the finally block too
    ("try:\n    f()\nexcept E:\n    return 1, 2\nfinally:\n    return 3, 4\n", ["dropped", "exits"]),
    ("try:\n    f()\nexcept E:\n    pass\nelse:\n    return 1, 2\nfinally:\n    return 3, 4\n", ["dropped", "exits"]),
    # an exception the finally block raises may be caught around it, after the return's writes
    (
        "try:\n    try:\n        return 1, 2\n    finally:\n        f()\nexcept E:\n    return 3, 4\n",
        ["mixed", "exits"],
    ),
    ("with c:\n    try:\n        return 1, 2\n    finally:\n        f()\n", ["mixed"]),
    # a context manager's exit may raise after the writes, where the exception may be caught
    ("try:\n    with c:\n        return 1, 2\nexcept E:\n    return 3, 4\n", ["mixed", "exits"]),
    ("with c:\n    with d:\n        return 1, 2\n", ["mixed"]),
    ("with c:\n    return 1, 2\n", ["exits"]),
    (
        "try:\n    try:\n        return 1, 2\n    finally:\n        pass\nexcept E:\n    return 3, 4\n",
        ["exits", "exits"],
    ),
    # nor can a constant, a docstring or ``...``, in any spelling, raise there
    (
        "try:\n    try:\n        return 1, 2\n    finally:\n        ...\n        'a' 'b'\n        0\nexcept E:\n"
        "    return 3, 4\n",
        ["exits", "exits"],
    ),
    # its own handlers run before it
    ("try:\n    return 1, 2\nexcept E:\n    return 3, 4\nfinally:\n    f()\n", ["exits", "exits"]),
    # a def in the finally block returns for itself
    ("try:\n    return 1, 2\nfinally:\n    def h():\n        return 0\n", ["exits"]),
]


@pytest.mark.parametrize(("body", "expected"), FINALLY_CASES)
def test_a_return_through_a_finally_block_exits_only_where_python_returns_it(body, expected):
    assert fates(body) == expected


@pytest.mark.parametrize(("body", "expected"), [c for c in FINALLY_CASES if "mixed" not in c[1] and "with" not in c[0]])
def test_the_fates_agree_with_running_the_function(body, expected):
    """Run the rule (c, d: one item each; f raises E, as a call may): the value it returns is
    the one of the return the model says exits, never one it says is dropped."""
    facts, returns = facts_of_rule(body)
    values = {}
    for ret in returns:
        if isinstance(ret.value, ast.Tuple):
            values[tuple(e.value for e in ret.value.elts)] = ret
    scope = {"c": [0], "d": [0], "E": ValueError}

    def f():
        raise ValueError

    scope["f"] = f
    exec("def rule(self, res, g, a, b):\n" + textwrap.indent(body, "    "), scope)
    try:
        got = scope["rule"](None, None, None, None, None)
    except ValueError:
        return  # the body raised through: no value returned
    assert got in values and values[got] in facts.exits and values[got] not in facts.discarded


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # the write before the dropped return happens on the path to the finally's return
        ("try:\n    a.accum(1)\n    return 1, 2\nfinally:\n    return 3, 4\n", [[S, N]]),
        ("a.accum(1)\ntry:\n    return 1, 2\nfinally:\n    return 3, 4\n", [[A, N]]),
        ("try:\n    return 1, 2\nfinally:\n    a.accum(1)\n", [[A, N]]),
        ("try:\n    pass\nfinally:\n    a.accum(1)\n    b.accum(2)\nreturn 1, 2\n", [[A, A]]),
        # an exception from the body reaches the finally's return unwritten
        ("try:\n    a.accum(1)\nfinally:\n    return 3, 4\n", [[S, N]]),
    ],
)
def test_what_reaches_the_return_of_a_finally_block(body, expected):
    facts, returns = facts_of_rule(body)
    assert [facts.at(r) for r in returns if r in facts.exits] == expected


@pytest.mark.parametrize(
    ("block", "abrupt"),
    [
        ("pass", False),
        ("return 1", True),
        ("raise E", True),
        ("if c: return 1", True),
        ("break", True),
        ("for i in c:\n    break", False),
        ("for i in c:\n    pass\nelse:\n    continue", True),
        ("while c:\n    continue", False),
        ("def h():\n    return 1", False),
        ("try:\n    pass\nexcept E:\n    return 1", True),
        ("with c:\n    raise E", True),
        ("match c:\n    case 1:\n        return 1", True),
        ("if c:\n    pass\nelif d:\n    return 1", True),
    ],
)
def test_a_block_that_may_end_abruptly(block, abrupt):
    assert ends_abruptly(ast.parse(block + "\n").body) is abrupt


def facts_with_builtins(body: str, builtins=("range", "zip", "enumerate")):
    source = "def rule(self, res, g, a, b):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    _, facts, returns = rule_facts(source, builtins=builtins)
    return [facts.at(r) for r in returns]


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ("for _ in range(1):", [A, N]),
        ("for _ in range(3):", [A, N]),
        ("for _ in range(0):", [N, N]),
        ("for _ in range(2, 2):", [N, N]),
        ("for _ in range(5, 0, -2):", [A, N]),
        ("for _ in range(0, 3, 0):", [S, N]),  # raises: walked as any loop
        ("for _ in range(-1):", [N, N]),
        ("for _ in range(n):", [S, N]),
        ("for _ in range(1000):", [S, N]),  # more rounds than are walked one by one
        ("for _ in (x,):", [A, N]),
        ("for _ in [x, y]:", [A, N]),
        ("for _ in ():", [N, N]),
        ("for _ in (*xs,):", [S, N]),
        ("for _ in zip((1, 2), (3, 4)):", [A, N]),
        ("for _ in zip((1, 2), ()):", [N, N]),
        ("for _ in zip((1, 2), ys):", [S, N]),
        ("for _ in enumerate([x]):", [A, N]),
        ("for _ in range(1, step=1):", [S, N]),
        ("async for _ in range(1):", [S, N]),
    ],
)
def test_a_loop_of_known_count_runs_that_many_times(loop, expected):
    assert facts_with_builtins(f"{loop}\n    a.accum(1)\nreturn 1, 2\n") == [expected]


def test_a_loop_name_that_is_not_the_builtin_is_any_loop():
    assert facts_with_builtins("for _ in range(1):\n    a.accum(1)\nreturn 1, 2\n", builtins=()) == [[S, N]]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("for _ in range(2):\n    a.accum(1)\n    break\nreturn 1, 2\n", [[A, N]]),
        ("for _ in range(1):\n    if c:\n        break\n    a.accum(1)\nreturn 1, 2\n", [[S, N]]),
        ("for _ in range(1):\n    continue\n    a.accum(1)\nreturn 1, 2\n", [[N, N]]),
        ("for _ in range(1):\n    pass\nelse:\n    a.accum(1)\nreturn 1, 2\n", [[A, N]]),
        ("for _ in range(1):\n    break\nelse:\n    a.accum(1)\nreturn 1, 2\n", [[N, N]]),
        ("for i in (a, b):\n    i.accum(1)\nreturn 1, 2\n", None),  # the accumulators stored: unknown
    ],
)
def test_breaks_continues_and_else_in_a_loop_of_known_count(body, expected):
    if expected is None:
        with pytest.raises(Exception, match="stored or handed on"):
            facts_with_builtins(body)
        return
    assert facts_with_builtins(body) == expected
