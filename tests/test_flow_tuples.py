"""A tuple is a tuple in any spelling (analysis/return_values.py ``visibly_tuple``, issue 40):
every spelling the tool reads as a tuple is one when Python evaluates it (generated
expressions), and the spellings a half-port writes are read."""

from __future__ import annotations

import random
import textwrap

import libcst as cst
import pytest
from cst_returns import cst_returns
from hijax_migrate.analysis.return_values import visibly_tuple
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
    module = cst.parse_module(source)
    func = module.body[0]
    return visibly_tuple(cst_returns(module, func)[-1].value, func, lambda name: True)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_what_is_read_as_a_tuple_is_one(seed):
    rng = random.Random(seed)
    lines = [f"x = {expression(rng)}"]
    if rng.random() < 0.4:
        lines.append(f"if c:\n    x = {expression(rng)}")
    if rng.random() < 0.3:
        lines.append(f"x += {expression(rng)}")
    if rng.random() < 0.1:
        lines.append("tuple = list")
    lines.append(f"return {expression(rng)}")
    source = "def rule(self, res, g, t=(1,), c=True):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"
    if not read(source):
        return
    scope: dict = {}
    exec(source, scope)
    for c in (True, False):
        try:
            got = scope["rule"](None, None, None, c=c)
        except (TypeError, UnboundLocalError):
            continue  # no value: nothing is returned
        assert isinstance(got, tuple), (source, c, got)


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
        ("return ct", False),
    ],
)
def test_each_spelling(body, expected):
    source = "def rule(self, res, g, ct=1, c=True):\n" + textwrap.indent(body, "    ") + "\n"
    assert read(source) is expected


def test_tuple_is_the_builtin_only_where_the_module_binds_no_other():
    module = cst.parse_module("def rule(self, res, g):\n    return tuple([g])\n")
    func = module.body[0]
    assert visibly_tuple(cst_returns(module, func)[0].value, func, lambda name: False) is False
