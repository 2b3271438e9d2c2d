"""Deliberate test fixtures, read from ``ast`` (analysis/fixture_classes.py): triage's
notes and the migration's, one reading. Generated test modules name their local class
and its helper in every place a word can stand, in and out of a ``raises`` block: the
generator knows which class is a fixture, as Python's reading of the module says."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import summarize_ast
from hijax_migrate.analysis.fixture_classes import fixture_classes
from hijax_migrate.analysis.summary import bridge_of, summarize_tree
from hijax_migrate.engine.undecided import fixtures
from hypothesis import given, settings
from hypothesis import strategies as st

from golden import read_case

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def by_migration(code: str) -> list[tuple[str, str]]:
    """The fixtures the migration finds, as libcst's nodes through the bridge, in its order."""
    tree = cst.parse_module(code)
    summary, nodes = summarize_tree(tree, code)
    names = {node: info.qualname for node, info in zip(nodes, summary.classes)}
    return [(names[cls], where) for cls, where in fixtures(bridge_of(tree, code)).items()]


def by_ast(code: str) -> list[tuple[str, str]]:
    tree = ast.parse(code)
    summary, nodes = summarize_ast(tree, "", False)
    names = {node: info.qualname for node, info in zip(nodes, summary.classes)}
    return [(names[cls], where) for cls, where in fixture_classes(tree, code).items()]


def _texts():
    for path in sorted(GOLDEN.glob("*.py")):
        case = read_case(path)
        yield from ((path.stem, text) for text in {case.source, case.expected} if "aises" in text)


@pytest.mark.parametrize("name, code", list(_texts()), ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_golden_fixtures_are_found_alike_by_triage_and_the_migration(name, code):
    assert by_ast(code) == by_migration(code), name


def test_a_class_used_only_in_raises_is_found():
    code = (
        "class T:\n    def test(self):\n        class Bad(Base):\n            pass\n\n"
        "        def make():\n            return Bad()\n\n"
        "        with self.assertRaisesRegex(TypeError, 'x'):\n            make()\n"
    )
    assert (
        by_ast(code)
        == by_migration(code)
        == [("T.test.<locals>.Bad", "used only inside `with self.assertRaisesRegex(...)`")]
    )


def test_a_function_defined_in_the_block_is_no_way_into_it_for_another_of_its_name():
    """A ``def`` in the block binds its name there and calls nothing: the helper of that
    name outside, the only one that names ``Bad``, is never reached from the block
    (hypothesis's seed 505 drew it; a class used nowhere was read as a fixture)."""
    code = (
        "class T:\n    def test(self):\n        class Bad(Base):\n            pass\n"
        "        def make():\n            return 1\n        with self.assertRaises(E):\n            make()\n"
        "            def g(make): pass\n        def g(Bad): pass\n"
    )
    assert by_ast(code) == by_migration(code) == []


# Places where a word (the class's name, or its helper's) may stand in a test method.
USES = [
    "{n}()",
    "x.{n}",
    "f({n}=1)",
    "lambda {n}: 1",
    "import a.{n} as b",
    "from m import {n}",
    "global {n}",
    "print({n})",
    "[{n} for _ in y]",
    "def g({n}): pass",
    "class D({n}): pass",
    "try:\n    pass\nexcept E as {n}:\n    pass",
    "f'{{{n}}}'",
    "@{n}\ndef h(): pass",  # evaluated where the def stands: a decorator, a default, an annotation
    "def h(x={n}): pass",
    "def h(x: {n}): pass",
    "match x:\n    case [*{n}]:\n        pass",  # patterns: a star, a capture, ``**rest``, a keyword
    "match x:\n    case 1 as {n}:\n        pass",
    "match x:\n    case {{**{n}}}:\n        pass",
    "match x:\n    case C({n}=1):\n        pass",
    "y: {n} = 1",
]


def _block(lines: list[str], indent: str) -> str:
    return "".join(indent + line + "\n" for text in lines for line in text.split("\n"))


RAISES = {"self.assertRaises(E)": "self.assertRaises", "pytest.raises(E)": "pytest.raises", "raises(E)": "raises"}


@st.composite
def modules_of_tests(draw) -> tuple[str, list[tuple[str, str]]]:
    """A test method defining ``Bad`` and a helper ``make`` (which may build it) before a
    ``with`` block, each named in and out of the block; and the fixtures it holds."""
    names = ["Bad", "make"]
    inside = [draw(st.sampled_from(names))]  # the block uses the class, or its helper, as tests do
    inside += draw(st.lists(st.sampled_from(names), max_size=3))
    outside = draw(st.lists(st.sampled_from(names), max_size=2))
    places = draw(st.lists(st.sampled_from(USES), min_size=len(inside + outside), max_size=len(inside + outside)))
    helper = draw(st.sampled_from(["return Bad()", "return 1", "pass"]))
    call = draw(st.sampled_from([*RAISES, "open(p)"]))
    lines = ["class Bad(Base):", "    pass", "def make():", f"    {helper}", f"with {call}:"]
    body = _block(lines, "        ")
    body += _block([f"{inside[0]}()", *(u.format(n=n) for u, n in zip(places[1:], inside[1:]))], "            ")
    body += _block([u.format(n=n) for u, n in zip(places[len(inside) :], outside)], "        ")
    local = [
        ("T.test.<locals>.D", f"defined inside `with {RAISES[call]}(...)`")
        for u in places[1 : len(inside)]
        if "class D" in u and call in RAISES
    ]
    # a parameter of a function defined out of the block binds the word there, uses nothing
    used_out = [n for u, n in zip(places[len(inside) :], outside) if not u.startswith("def g(")]
    return "class T:\n    def test(self):\n" + body, local + _expected(inside, used_out, helper, call)


def _expected(inside: list[str], outside: list[str], helper: str, call: str) -> list[tuple[str, str]]:
    """``Bad`` is a fixture where every use of it stands in the block, or in ``make`` where every
    use of that stands there (``make`` names itself, in its own ``def``); and one reaches the block."""
    if call not in RAISES:
        return []
    make_only = "make" not in outside
    bad_only = "Bad" not in outside and (make_only or "return Bad" not in helper)
    bad_used = "Bad" in inside + outside or "return Bad" in helper
    reached = "Bad" in inside or ("return Bad" in helper and make_only and "make" in inside)
    if not (bad_only and bad_used and reached):
        return []
    return [("T.test.<locals>.Bad", f"used only inside `with {RAISES[call]}(...)`")]


@settings(max_examples=300, deadline=None)
@given(modules_of_tests())
def test_generated_test_modules_hold_the_fixtures_python_reads(module):
    code, expected = module
    assert by_ast(code) == expected
    assert by_migration(code) == expected


@pytest.mark.parametrize(
    ("call", "named"),
    [
        ("(self.assertRaises)(E)", "self.assertRaises"),
        ("self . assertRaises(E)", "self.assertRaises"),
        ("self.assertRaises(\n    E)", "self.assertRaises"),
        ("self.case(1).assertRaises(E)", "self.case(1).assertRaises"),
    ],
)
def test_a_raises_call_written_otherwise_is_named_as_python_writes_it(call, named):
    code = f"class T:\n    def test(self):\n        with {call}:\n            class Bad(Base):\n                pass\n"
    expected = [("T.test.<locals>.Bad", f"defined inside `with {named}(...)`")]
    assert by_ast(code) == by_migration(code) == expected


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_other_line_endings_are_read_as_python_ends_lines(ending):
    code = (
        "class T:\n    def test(self):\n        x = 1\n        with self.assertRaises(E):\n"
        "            class Bad(Base):\n                pass\n"
        "    def other(self):\n        class Good(Base):\n            pass\n        return Good\n"
    ).replace("\n", ending)
    expected = [("T.test.<locals>.Bad", "defined inside `with self.assertRaises(...)`")]
    assert by_ast(code) == by_migration(code) == expected


def test_a_module_of_lone_carriage_returns_is_triaged_as_migrated():
    from hijax_migrate.analysis.project import Project
    from hijax_migrate.core.model import Options
    from hijax_migrate.core.versions import parse_version
    from hijax_migrate.engine.engine import migrate_source
    from hijax_migrate.engine.triage import untouched

    code = (
        "from jax.experimental.hijax import VJPHiPrimitive\n\nclass T:\n    def test(self):\n"
        "        with self.assertRaises(E):\n            class Bad(VJPHiPrimitive):\n"
        "                def vjp_bwd(self, res, g):\n                    return (g,)\n"
    ).replace("\n", "\r")
    options = Options(target=parse_version("0.10.2"))  # the import stays: only the note
    triaged = untouched(code, "t.py", options, Project())
    migrated = migrate_source(code, "t.py", options)
    assert migrated.code == code
    assert triaged is not None and triaged.findings == migrated.report.findings
    assert [(f.line, f.message.split(":")[0]) for f in triaged.findings] == [(6, "T.test.<locals>.Bad")]


@pytest.mark.parametrize(
    ("outside", "fixtures"),
    [
        ("@Bad\n        def h(): pass", []),  # a decorator runs where the def stands
        ("def h(x=Bad): pass", []),  # so does a default
        ("def h(x: Bad): pass", []),  # and an annotation
        # a base, where the class stands (the class itself used only in the block)
        ("class D(Bad): pass\n        with self.assertRaises(E):\n            D()", ["T.test.<locals>.D"]),
    ],
)
def test_what_a_def_or_class_evaluates_where_it_stands_is_a_use_there(outside, fixtures):
    code = (
        "class T:\n    def test(self):\n        class Bad(Base):\n            pass\n"
        f"        with self.assertRaises(E):\n            Bad()\n        {outside}\n"
    )
    found = by_ast(code)
    assert found == by_migration(code)
    assert [name for name, _ in found] == fixtures
