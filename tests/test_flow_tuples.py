"""A tuple is a tuple in any spelling (analysis/returns.py ``visibly_tuple``, issue 40):
every spelling the tool reads as a tuple is one when Python evaluates it (generated
expressions), and the spellings a half-port writes are read."""

from __future__ import annotations

import ast
import random
import textwrap

import pytest
from hijax_migrate.analysis.returns import in_catching_block, listed, own_returns, visibly_tuple
from hypothesis import given, settings
from hypothesis import strategies as st

LEAVES = [
    "(1,)",
    "(1, 2)",
    "()",
    "[1]",
    "{'a': 1}",
    "x",
    "tuple([1])",
    "tuple(v for v in (1,))",
    "dict(a=1)",
    "(*t,)",
    "1",
    "t",
    "[*t]",
]


def expression(rng: random.Random, depth: int = 0) -> str:
    if depth > 2 or rng.random() < 0.4:
        return rng.choice(LEAVES)
    a, b = expression(rng, depth + 1), expression(rng, depth + 1)
    return rng.choice([f"({a} if c else {b})", f"({a} + {b})", f"({a} * 2)", f"(2 * {a})", f"({a} * {b})"])


def read(source: str) -> bool:
    func = ast.parse(source).body[0]
    return visibly_tuple(own_returns(func)[-1].value, func, lambda name: True)


def rule_of(rng: random.Random, value, last: str | None = None, shadow: bool = False) -> str:
    """A rule binding ``x`` (``value()`` draws an expression) and returning ``last`` or a drawn one."""
    lines = [f"x = {value()}"]
    if rng.random() < 0.4:
        lines.append(f"if c:\n    x = {value()}")
    if rng.random() < 0.3:
        lines.append(f"x += {value()}")
    if shadow and rng.random() < 0.1:
        lines.append("tuple = list")
    lines.append(last or f"return {value()}")
    return "def rule(self, res, g, t=(1,), c=True):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def results(source: str) -> list:
    """What the rule returns for each ``c`` (where it returns)."""
    scope: dict = {}
    exec(source, scope)
    found = []
    for c in (True, False):
        try:
            found.append(scope["rule"](None, None, None, c=c))
        except (TypeError, UnboundLocalError):
            continue  # no value: nothing is returned
    return found


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_what_is_read_as_a_tuple_is_one(seed):
    rng = random.Random(seed)
    source = rule_of(rng, lambda: expression(rng), shadow=True)
    if read(source):
        assert all(isinstance(got, tuple) for got in results(source)), source


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return (ct,) if c else (ct * 0,)", True),
        ("cts = (ct,)\nreturn cts", True),
        ("return tuple([ct])", True),
        ("return (ct,) + ()", True),
        ("return tuple(c for c in cts)", True),
        ("return (*cts,)", True),
        ("return (ct,) * 2", True),
        ("cts = (ct,)\ncts += (ct,)\nreturn cts", True),
        ("return {'g': ct}", False),
        ("return logs", False),  # a name bound nowhere in the rule
        ("logs = make(ct)\nreturn logs", False),
        ("cts = (ct,)\nif c:\n    cts = {'g': ct}\nreturn cts", False),
        ("return (ct,) if c else logs", False),
        ("return (ct,) + extra", False),  # extra.__radd__ may return anything
        ("return (ct,) * n", False),
        ("tuple = dict\nreturn tuple(g=ct)", False),
        ("for cts in pairs:\n    pass\nreturn cts", False),
        ("cts = (ct,)\nmatch c:\n    case [*cts]:\n        pass\nreturn cts", False),  # a pattern binds it too
        ("cts = (ct,)\nimport cts\nreturn cts", False),
        ("return ct", False),
    ],
)
def test_each_spelling(body, expected):
    source = "def rule(self, res, g, ct=1, c=True):\n" + textwrap.indent(body, "    ") + "\n"
    assert read(source) is expected


def test_tuple_is_the_builtin_only_where_the_module_binds_no_other():
    func = ast.parse("def rule(self, res, g):\n    return tuple([g])\n").body[0]
    assert visibly_tuple(own_returns(func)[0].value, func, lambda name: False) is False


LIST_LEAVES = ["[1]", "[]", "[v for v in (1,)]", "list((1,))", "[1] * 2", "2 * [1]", "(1,)", "t", "{'a': 1}"]


def list_expression(rng: random.Random, depth: int = 0) -> str:
    if depth > 1 or rng.random() < 0.5:
        return rng.choice(LIST_LEAVES)
    return f"({list_expression(rng, depth + 1)} if c else {list_expression(rng, depth + 1)})"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_what_is_read_as_a_list_is_one(seed):
    """``returns.listed``: the results the rewrites make tuples of (jax refuses a list)."""
    rng = random.Random(seed)
    source = rule_of(rng, lambda: list_expression(rng), rng.choice(["return x", None]))
    func = ast.parse(source).body[0]
    value = own_returns(func)[-1].value
    if listed(value, func) and not isinstance(value, ast.IfExp):  # an arm listed: that arm is made a tuple
        assert all(isinstance(got, list) for got in results(source)), source


@pytest.mark.parametrize(
    ("body", "caught"),
    [
        ("return (g, g)", False),
        ("try:\n    return (g, g)\nexcept E:\n    pass", True),
        ("try:\n    pass\nfinally:\n    return (g, g)", True),  # the finally block is the try's
        ("with c:\n    return (g, g)", True),  # a context manager may swallow it
        ("if c:\n    for x in y:\n        with d:\n            return (g, g)", True),
        ("try:\n    pass\nexcept E:\n    pass\nreturn (g, g)", False),
        ("try:\n    def h():\n        return (g, g)\nexcept E:\n    pass\nreturn (g, g)", False),  # h's own
    ],
)
def test_a_return_an_exception_may_be_caught_at(body, caught):
    """``returns.in_catching_block``: an exception raised where the rule returns may be caught in it."""
    func = ast.parse("def rule(self, res, g):\n" + textwrap.indent(body, "    ") + "\n").body[0]
    assert in_catching_block(own_returns(func)[-1], func) is caught
