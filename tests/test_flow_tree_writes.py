"""Writes through ``jax.tree.map`` (analysis/tree_writes.py, issue 40): an accumulator
passed as the first tree of a call the name model says is ``jax.tree.map``, with a
function that writes its first parameter exactly once on every path."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hijax_migrate.analysis.accum_uses import Unknown
from hijax_migrate.analysis.paths import Written
from rule_facts import rule_facts

A, N, U = Written.ALWAYS, Written.NEVER, Written.UNKNOWN


def facts_at_return(body: str, star: bool = False, builtins=("zip",)) -> list[Written]:
    """``tm`` stands for the tree map (the name model's answer, given here); ``builtins``: Python's own."""
    params = "*accs" if star else "a, b"
    source = f"def rule(self, res, g, {params}):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    is_tree_map = lambda f: isinstance(f, ast.Name) and f.id == "tm"  # noqa: E731
    star_of = ("accs", 2) if star else None
    _, facts, returns = rule_facts(source, star=star_of, builtins=builtins, is_tree_map=is_tree_map)
    return facts.at(returns[-1])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("tm(lambda q, w: q.accum(w), a, g)", [A, N]),
        ("tm(lambda q, w: q.accum(w * 2), [a, b], (g, g))", [A, A]),
        ("tm(lambda q, w: q.accum(w), b, g)", [N, A]),
        ("tm(lambda w, q: q.accum(w), g, a)", [U, N]),  # not the first tree
        ("tm(lambda q, w: w.accum(q), a, g)", [U, N]),  # not its first parameter
        ("tm(lambda q, w: q.accum(q), a, g)", [U, N]),
        ("tm(lambda q, w: q.accum(w) or q.accum(w), a, g)", [U, N]),
        ("tm(lambda q, w: q.accum(w), a, g, is_leaf=None)", [U, N]),
        ("other(lambda q, w: q.accum(w), a, g)", [U, N]),  # not the tree map
        ("x = tm(lambda q, w: q.accum(w), a, g)", [U, N]),  # not a statement of its own
        ("tm(lambda q, w: q.accum(w), (a, *more), g)", None),  # stored in a tuple with others: unknown
        ("def w(q, c):\n    q.accum(c)\ntm(w, a, g)", [A, N]),
        ("def w(q, c):\n    if c:\n        q.accum(c)\ntm(w, a, g)", [U, N]),
        ("def w(q, c):\n    q.accum(c)\n    q.accum(c)\ntm(w, a, g)", [U, N]),
        ("def w(q, c):\n    keep(q)\ntm(w, a, g)", [U, N]),
        ("def w(q, c):\n    q.accum(c)\nw = other\ntm(w, a, g)", [U, N]),  # bound twice
        ("@deco\ndef w(q, c):\n    q.accum(c)\ntm(w, a, g)", [U, N]),
        ("tm(outside, a, g)", [U, N]),  # a function of the module: not read here
    ],
)
def test_a_tree_map_writes_its_first_tree_once(body, expected):
    if expected is None:
        with pytest.raises(Unknown, match="stored or handed on"):
            facts_at_return(body + "\nreturn 1, 2\n")
        return
    assert facts_at_return(body + "\nreturn 1, 2\n") == expected


def test_every_accumulator_as_the_first_tree():
    assert facts_at_return("tm(lambda q, w: q.accum(w), accs, g)\nreturn 1, 2\n", star=True) == [A, A]


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ("for q, c in zip((a, b), (g, g)):\n    q.accum(c)", [A, A]),
        ("for c, q in zip([g, g], [b, a]):\n    q.accum(c)", [A, A]),
        ("for q, c in zip((a,), (g, g)):\n    q.accum(c)", [A, N]),
        ("for q, c in zip((a, a), (g, g)):\n    q.accum(c)", [A, N]),  # twice: written
        ("for q, c in zip((a, b), (g,)):\n    q.accum(c)", [U, U]),  # zip stops before b
        ("for q, c in zip((a, b), cts):\n    q.accum(c)", [U, U]),
        ("for q, c in zip((a, b), (g, g), strict=True):\n    q.accum(c)", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    if c:\n        q.accum(c)", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    q.accum(c)\n    break", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    q.accum(c)\n    q.accum(c)", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    keep(q)", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    q.accum(c)\nelse:\n    pass", [U, U]),
        ("for q, c in zip((a, b), (g, g)):\n    q.accum(c)\nq.accum(g)", [U, U]),  # the name used after
    ],
)
def test_a_loop_of_the_rule_over_zip_writes_each_accumulator_once(loop, expected):
    assert facts_at_return(loop + "\nreturn 1, 2\n") == expected


def test_zip_that_is_not_the_builtin_is_a_call():
    body = "for q, c in zip((a, b), (g, g)):\n    q.accum(c)\nreturn 1, 2\n"
    assert facts_at_return(body, builtins=()) == [U, U]
