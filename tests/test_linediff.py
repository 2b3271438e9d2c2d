"""The diff the tool prints is difflib's, byte for byte (linediff finds the
same blocks in time that grows with the size, not with size times changes)."""

import difflib

from hijax_migrate.core.linediff import unified_diff
from hypothesis import given, settings
from hypothesis import strategies as st

# Few distinct lines: repeats, ties between equal blocks, and (from 200 lines)
# lines popular enough that difflib leaves them out of its index.
_LINE = st.integers(0, 8).map(lambda n: f"line {n}\n")
_EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 10_000), _LINE)


@st.composite
def pairs(draw):
    a = draw(st.one_of(st.lists(_LINE, max_size=40), st.lists(_LINE, min_size=200, max_size=400)))
    b = list(a)
    for op, at, line in draw(st.lists(_EDIT, max_size=12)):
        at = at % (len(b) + 1)
        if op == "insert":
            b.insert(at, line)
        elif b:
            b[min(at, len(b) - 1) : min(at, len(b) - 1) + 1] = [line] if op == "replace" else []
    return a, b


@settings(max_examples=300, deadline=None)
@given(pairs())
def test_the_diff_is_difflibs(pair):
    a, b = pair
    assert list(unified_diff(a, b, "a/x.py", "b/x.py")) == list(difflib.unified_diff(a, b, "a/x.py", "b/x.py"))


@settings(max_examples=100, deadline=None)
@given(st.lists(_LINE, max_size=300), st.lists(_LINE, max_size=300))
def test_unrelated_texts_too(a, b):
    assert list(unified_diff(a, b, "a/x.py", "b/x.py")) == list(difflib.unified_diff(a, b, "a/x.py", "b/x.py"))


def test_a_big_module_with_a_change_every_few_lines():
    a = [f"def f{i}(x):\n" if i % 7 == 0 else "    return x\n" for i in range(5000)]
    b = [line.replace("(x)", "(x, y)") if n % 21 == 0 else line for n, line in enumerate(a)]
    assert list(unified_diff(a, b, "a/x.py", "b/x.py")) == list(difflib.unified_diff(a, b, "a/x.py", "b/x.py"))
