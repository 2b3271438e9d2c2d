"""Deliberate test fixtures read from ``ast`` (triage's notes, without libcst)
are those libcst's walk finds (the migration's), worded the same: on every
golden case, and on generated test modules whose local classes and helpers
are named in every place a word can stand."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import summarize_ast
from hijax_migrate.analysis.deflines import DefLines
from hijax_migrate.analysis.fixture_classes import Undecidable, fixture_classes
from hijax_migrate.analysis.summary import bridge_of, summarize_tree
from hijax_migrate.engine.undecided import fixtures
from hypothesis import given, settings
from hypothesis import strategies as st

from golden import read_case

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def by_libcst(code: str, defs: bool = False) -> list[tuple[str, str]]:
    """The fixtures the migration finds, in its order: by its own walk, or
    (``defs``) by ``ast``'s walk, its classes named through ``DefLines``."""
    tree = cst.parse_module(code)
    summary, nodes = summarize_tree(tree, code)
    names = {node: info.qualname for node, info in zip(nodes, summary.classes)}
    found = fixtures(tree, code, DefLines(bridge_of(tree, code), code) if defs else None)
    return [(names[cls], where) for cls, where in found.items()]


def by_ast(code: str) -> list[tuple[str, str]] | None:
    tree = ast.parse(code)
    summary, nodes = summarize_ast(tree, "", False)
    names = {node: info.qualname for node, info in zip(nodes, summary.classes)}
    try:
        return [(names[cls], where) for cls, where in fixture_classes(tree, code).items()]
    except Undecidable:
        return None


def _texts():
    for path in sorted(GOLDEN.glob("*.py")):
        case = read_case(path)
        yield from ((path.stem, text) for text in {case.source, case.expected} if "aises" in text)


@pytest.mark.parametrize("name, code", list(_texts()), ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_golden_fixtures_are_found_alike(name, code):
    found = by_ast(code)
    assert found is None or found == by_libcst(code), name
    assert by_libcst(code, defs=True) == by_libcst(code), name


def test_a_class_used_only_in_raises_is_found_both_ways():
    code = (
        "class T:\n    def test(self):\n        class Bad(Base):\n            pass\n\n"
        "        def make():\n            return Bad()\n\n"
        "        with self.assertRaisesRegex(TypeError, 'x'):\n            make()\n"
    )
    assert (
        by_ast(code)
        == by_libcst(code)
        == by_libcst(code, defs=True)
        == [("T.test.<locals>.Bad", "used only inside `with self.assertRaisesRegex(...)`")]
    )


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
    "@{n}\ndef h(): pass",
]


def _block(lines: list[str], indent: str) -> str:
    return "".join(indent + line + "\n" for text in lines for line in text.split("\n"))


@st.composite
def modules_of_tests(draw):
    names = ["Bad", "make"]
    inside = draw(st.lists(st.sampled_from(USES), max_size=3))
    outside = draw(st.lists(st.sampled_from(USES), max_size=2))
    helper = draw(st.sampled_from(["return Bad()", "return 1", "pass"]))
    call = draw(st.sampled_from(["self.assertRaises(E)", "pytest.raises(E)", "raises(E)", "open(p)"]))
    lines = ["class Bad(Base):", "    pass", "def make():", f"    {helper}", f"with {call}:"]
    body = _block(lines, "        ")
    first = f"{draw(st.sampled_from(names))}()"  # the block uses the class, or its helper, as tests do
    body += _block([first, *(use.format(n=draw(st.sampled_from(names))) for use in inside)], "            ")
    body += _block([use.format(n=draw(st.sampled_from(names))) for use in outside], "        ")
    return "class T:\n    def test(self):\n" + body


@settings(max_examples=150, deadline=None)
@given(modules_of_tests())
def test_generated_test_modules_are_read_alike(code):
    ast.parse(code)
    found = by_ast(code)
    assert found is None or found == by_libcst(code)
    assert by_libcst(code, defs=True) == by_libcst(code)


@pytest.mark.parametrize("call", ["(self.assertRaises)(E)", "self . assertRaises(E)", "self.assertRaises(\n    E)"])
def test_a_raises_call_written_otherwise_is_left_to_libcst_or_read_alike(call):
    code = f"class T:\n    def test(self):\n        with {call}:\n            class Bad(Base):\n                pass\n"
    found = by_ast(code)
    assert found is None or found == by_libcst(code)
    assert by_libcst(code)  # a fixture all the same


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_other_line_endings_are_read_alike_or_left_to_libcst(ending):
    code = (
        "class T:\n    def test(self):\n        x = 1\n        with self.assertRaises(E):\n"
        "            class Bad(Base):\n                pass\n"
    ).replace("\n", ending)
    found = by_ast(code)
    assert found == by_libcst(code) if ending == "\r\n" else found is None


def test_a_module_of_lone_carriage_returns_is_triaged_without_error():
    from hijax_migrate.analysis.project import Project
    from hijax_migrate.core.model import Options
    from hijax_migrate.engine.triage import untouched

    code = (
        "from jax.experimental.hijax import VJPHiPrimitive\n\nclass T:\n    def test(self):\n"
        "        with self.assertRaises(E):\n            class Bad(VJPHiPrimitive):\n"
        "                def vjp_bwd(self, res, g):\n                    return (g,)\n"
    ).replace("\n", "\r")
    assert untouched(code, "t.py", Options(), Project()) is None  # libcst decides, and says it
