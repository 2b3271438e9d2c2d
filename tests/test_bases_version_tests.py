"""``analysis.version_tests``: a gate's test evaluated on the target's release
line agrees with Python on every release of that line, wherever it says it knows."""

from __future__ import annotations

import libcst as cst
from hijax_migrate.analysis.version_tests import VERSION, evaluate, known_prefix, literal_value
from hypothesis import given, settings
from hypothesis import strategies as st

OPS = ("==", "!=", "<", "<=", ">", ">=")
parts = st.integers(0, 13)
versions = st.lists(parts, min_size=2, max_size=4).map(tuple)


def _leaf(expr: cst.BaseExpression):
    if isinstance(expr, cst.Name) and expr.value in ("V", "I"):
        return VERSION
    return literal_value(expr)


def _releases(target: tuple[int, ...], tails: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Releases of the target's line: its known parts, then any."""
    prefix = known_prefix(target)
    return [prefix + tail for tail in tails] + [prefix]


@settings(max_examples=400, deadline=None)
@given(
    target=versions,
    literal=versions,
    ops=st.lists(st.sampled_from(OPS), min_size=1, max_size=3),
    joins=st.lists(st.sampled_from(["or", "and", "and not"]), min_size=2, max_size=2),
    tails=st.lists(st.lists(parts, max_size=2).map(tuple), min_size=1, max_size=4),
)
def test_a_known_value_is_pythons_on_every_release_of_the_line(target, literal, ops, joins, tails):
    string = ".".join(map(str, literal))
    terms = [f'V {ops[0]} "{string}"', f"I {ops[-1]} {literal!r}", f"{literal!r} {ops[len(ops) // 2]} I"]
    code = f"{terms[0]} {joins[0]} {terms[1]} {joins[1]} {terms[2]}"
    value = evaluate(cst.parse_expression(code), target, _leaf)
    if value is None:
        return
    for release in _releases(target, tails):
        names = {"V": ".".join(map(str, release)), "I": release}
        assert eval(code, {}, names) is value, (code, release)  # noqa: S307 -- a test's own expression


def test_eqiora_s_gate_raises_at_every_line_but_0_11():
    gate = cst.parse_expression('V != "0.11.0" or jaxlib != "0.11.0"')
    assert evaluate(gate, (0, 12, 0), _leaf) is True
    assert evaluate(gate, (0, 10, 0), _leaf) is True
    assert evaluate(gate, (0, 11, 0), _leaf) is None  # 0.11.0 itself, or 0.11.0.x: not known


def test_unknown_names_stay_unknown():
    assert evaluate(cst.parse_expression("FLAG and I >= (0, 9)"), (0, 12, 0), _leaf) is None
    assert evaluate(cst.parse_expression("FLAG or I >= (0, 9)"), (0, 12, 0), _leaf) is True
    assert evaluate(cst.parse_expression("FLAG and I < (0, 9)"), (0, 12, 0), _leaf) is False
