"""What a rule does with an accumulator (analysis/accum_uses.py), read from ``ast``: each
form of use, written inside any compound statement, is a write, an inspection, a call
it is handed to, or unknown (with the reason). The forms: a write is a statement of its
own; an inspection's value only decides (a test, a comparison, ``isinstance`` and its
kind); a use in another block (a nested def, lambda, comprehension) or any rebinding is
unknown, since what runs there, or what the name then holds, is not the accumulator's."""

from __future__ import annotations

import ast
import random
import textwrap

import pytest
from hijax_migrate.analysis.accum_uses import Unknown, Uses
from hypothesis import given, settings
from hypothesis import strategies as st

WRITE, INSPECT, HANDED = "write", "inspect", "handed"

FORMS = {
    "a.accum(g)": WRITE,
    "a.ref[...] = g": WRITE,
    "a.ref[0] += g": WRITE,
    "x = y = a.ref[1] = g": WRITE,
    "isinstance(a, T)": INSPECT,
    "type(a)": INSPECT,
    "x = len(a)": INSPECT,
    "x = a is None": INSPECT,
    "x = None is not a": INSPECT,
    "assert a": INSPECT,
    "x = 1 if a else 2": INSPECT,
    "x = not a": INSPECT,
    "x = a.aval": INSPECT,
    "x = not (a and c)": INSPECT,
    "f(a)": HANDED,
    "f(k=a)": HANDED,
    "f((c, a))": HANDED,
    "x = f([a, c])": HANDED,
    "x = a": "stored or handed on",
    "x = (a, c)": "stored or handed on",
    "f(*a)": "handed to a call",
    "f(**a)": "handed to a call",
    "f((c, *a))": "stored or handed on",
    "x = a and c": "stored or handed on",
    "a.accum(g) if c else None": "used through `.accum`",
    "x = a.accum(g)": "used through `.accum`",
    "x = a.ref[0]": "used through `.ref`",
    "a.other(g)": "used through `.other`",
    "f(lambda: a.accum(g))": "used through `.accum`",
    "x = [a for _ in c]": "stored or handed on",
    "a = g": "bound again",
    "del a": "bound again",
    "for a in c:\n    pass": "bound again",
    "with c as a:\n    pass": "bound again",
    "import a": "bound again",
    "(a := g)": "bound again",
    "def inner():\n    a.accum(g)": "written inside a nested function or expression",
    "def inner():\n    nonlocal a\n    a = 1": "bound again",
}

# Compound statements a form may stand in: what runs there is the form itself.
WRAPS = ["if c:\n{}", "for _ in c:\n{}", "while c:\n{}", "try:\n{}\nexcept E:\n    pass", "with c:\n{}"]


def classify(body: str):
    source = "def rule(self, res, g, a):\n" + textwrap.indent(body, "    ") + "\n"
    func = ast.parse(source).body[0]
    try:
        acc = Uses(func).named("a")
    except Unknown as unknown:
        return str(unknown), unknown.node
    kinds = [WRITE] * len(acc.writes) + [HANDED] * len(acc.handed)
    return (kinds[0] if kinds else INSPECT), None


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_of_use(form):
    found, node = classify(form)
    expected = FORMS[form]
    if expected in (WRITE, INSPECT, HANDED):
        assert found == expected
    else:
        assert expected in found and node is not None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_a_form_reads_alike_in_any_block(seed):
    rng = random.Random(seed)
    form = rng.choice(sorted(FORMS))
    body = form
    for _ in range(rng.randint(1, 3)):
        body = rng.choice(WRAPS).format(textwrap.indent(body, "    "))
    found, _ = classify(body)
    expected = FORMS[form]
    assert found == expected if expected in (WRITE, INSPECT, HANDED) else expected in found, body


def test_a_write_and_a_call_are_named_by_their_statement_and_call():
    source = "def rule(self, res, g, a):\n    if c:\n        a.accum(g)\n    f(1, a)\n"
    func = ast.parse(source).body[0]
    acc = Uses(func).named("a")
    assert [w.lineno for w in acc.writes] == [3]
    assert [(h.call.lineno, h.element) for h in acc.handed] == [(4, None)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("accs[0].accum(g)\naccs[1].accum(g)", [[3], [4]]),
        ("accs[0x0].accum(g)\naccs[0b1].accum(g)", [[3], [4]]),  # any spelling of an int (a crash before)
        ("x, y = accs\nx.accum(g)\ny.accum(g)", [[4], [5]]),
        ("f(*accs)", [[], []]),
        ("accs[True].accum(g)", "stored or handed on"),
        ("accs[2].accum(g)", "indexed past"),
        ("x, y, z = accs", "unpacked to 3"),
    ],
)
def test_the_elements_of_star_accumulators(body, expected):
    source = "def rule(self, res, g, *accs):\n" + textwrap.indent(body, "    ") + "\n"
    uses = Uses(ast.parse(source).body[0])
    if isinstance(expected, str):
        with pytest.raises(Unknown, match=expected):
            uses.star("accs", 2)
        return
    accs = uses.star("accs", 2)
    assert [[w.lineno + 1 for w in acc.writes] for acc in accs] == expected
    assert all(acc.handed == uses.spread for acc in accs) and (body.startswith("f(") == bool(uses.spread))
