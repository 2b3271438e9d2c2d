"""Lines of classes and functions read from ``ast`` are libcst's own."""

from __future__ import annotations

import libcst as cst
import pytest
from hijax_migrate.analysis.deflines import DefLines
from hijax_migrate.analysis.nodes import findall
from hijax_migrate.analysis.summary import bridge_of
from libcst.metadata import MetadataWrapper, PositionProvider

from golden import GOLDEN, read_case

ODD = """\
import functools
x = 1; from a import (b,
    c); import d
from \\
    e import f
@functools.wraps(f)

@decorator(lambda: 0)
class Wrapped(Base):  # é, 漢字 before: columns count bytes
    x = "漢字"; y = 1
    async def method(self): return 1
    def \\
            continued(self):
        pass
    class Inner:
        def deep(self):
            class Local: pass
            return [lambda: 0 for _ in ()]
if cond:
    def in_if(): pass
else:
    def in_else(): pass
\x0c
def after_form_feed(): pass
try:
    def in_try(): pass
except E:
    class InExcept: pass
finally:
    def in_finally(): pass
match x:
    case 1:
        def in_case(): pass
def é(): pass
"""


def _by_libcst(code: str) -> dict[str, int]:
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    return {node: positions[node.name].start.line for node in _defs(wrapper.module)}


def _check(code: str) -> int:
    tree = cst.parse_module(code)
    expected = _by_libcst(tree.code)
    fast = DefLines(bridge_of(tree, code), code)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    taken = 0
    for node in _defs(tree):
        line = fast.line(node)
        if line is not None:
            taken += 1
            assert line == positions[node.name].start.line, node.name.value
    assert len(expected) == len(list(_defs(tree)))
    for node in _top_imports(tree):
        line = fast.line(node)
        if line is not None:
            taken += 1
            assert line == positions[node].start.line, cst.Module([]).code_for_node(node)
    return taken


def _defs(tree: cst.Module) -> list[cst.CSTNode]:
    return findall(tree, (cst.ClassDef, cst.FunctionDef))  # libcst's own walk, in source order


def _top_imports(tree: cst.Module) -> list[cst.CSTNode]:
    return [
        small
        for statement in tree.body
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
        if isinstance(small, (cst.Import, cst.ImportFrom))
    ]


def test_odd_layouts_give_libcst_lines_or_none():
    taken = _check(ODD)
    tree = cst.parse_module(ODD)
    assert taken == len(list(_defs(tree))) - 1 + len(_top_imports(tree))  # all but the continued name


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_newlines_are_left_to_libcst(newline):
    code = ODD.replace("\n", newline)
    assert _check(code) == 0


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_golden_cases(path):
    case = read_case(path)
    for code in {case.source, case.expected}:
        _check(code)
