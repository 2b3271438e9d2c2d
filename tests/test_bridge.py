"""The bridge pairs every statement of libcst's tree with ``ast``'s, both ways, same
kind, same line: over programs generated from the language reference's statements.

The enumeration (Python reference, chapters 7 and 8): simple statements are an
expression (a call, ``yield``, ``await``), ``assert``, an assignment (chained,
unpacking, to an attribute or subscript), an augmented and an annotated one
(with a value or without), ``pass``, ``del``, ``return`` (bare or with a value),
``raise`` (bare, ``from``), ``break``, ``continue``, ``import``, ``from ...
import`` (relative, ``*``), ``global``, ``nonlocal`` and ``type``; compound ones
are ``if`` (``elif`` chains, and an ``else`` holding a lone ``if``), ``while``
and ``for`` (with ``else``; ``async for``), ``try`` (handlers, ``else``,
``finally``; ``except*``), ``with`` (several items, bracketed; ``async with``),
``def`` (``async``, decorated, type parameters), ``class`` (decorated, type
parameters) and ``match`` (cases, guards). Each may stand on its own line, be
joined to others by ``;``, or be a suite on its header's line. Syntax this
Python's ``ast`` cannot read (3.12's f-strings) sends ``ast`` to the text
written out older: the bridge still pairs every statement.
"""

from __future__ import annotations

import ast
import sys

import libcst as cst
import pytest
from hijax_migrate.analysis.bridge import Bridge
from hijax_migrate.analysis.nodes import findall
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.core.errors import MigrationError
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, PositionProvider

from golden import GOLDEN, read_case

_SMALL = [
    "f(x)",
    "yield x",
    "await g()",
    "assert x, 'why'",
    "a = b = 1",
    "a, *b = c",
    "o.a[0] = 1",
    "n += 1",
    "v: int = 1",
    "w: int",
    "pass",
    "del a, b[0]",
    "return",
    "return a, b",
    "raise",
    "raise E() from e",
    "break",
    "continue",
    "import a.b as c",
    "from .. import d",
    "from m import *",
    "global g",
    "nonlocal n",
    "type Alias = list[int]",
    "s = f'{x!r:>{w}}'",
    "t = f'{'nested'}'",  # 3.12 syntax: ast reads the text written out older
]
_SIMPLE = st.lists(st.sampled_from(_SMALL), min_size=1, max_size=3).map(lambda parts: "; ".join(parts))
_HEADERS = [
    ("if c:", ["elif d:", "else:"]),
    ("if c:", ["else:\n    if d:"]),  # an ``else`` holding a lone ``if``: ``ast``'s ``elif``
    ("while c:", ["else:"]),
    ("for i in x:", ["else:"]),
    ("async for i in x:", []),
    ("try:", ["except E as e:", "except (F, G):", "else:", "finally:"]),
    ("try:", ["except* E:", "except* F:"]),
    ("try:", ["finally:"]),
    ("with m as a, n:", []),
    ("with (m as a,\n      n as b):", []),
    ("async with m:", []),
    ("def f(a, *b, **c):", []),
    ("@d\n@e(1)\ndef f():", []),
    ("async def f():", []),
    ("def f[T](x: T) -> T:", []),
    ("class C(B, metaclass=M):", []),
    ("@d\nclass C:", []),
    ("class C[T]:", []),
    ("match v:\n    case [1, *r] if r:", ["    case {'k': x}:", "    case _:"]),
]


def _indent(lines: list[str], by: str = "    ") -> list[str]:
    return [by + line for text in lines for line in text.split("\n")]


def _compound(body):
    """A compound statement of ``_HEADERS``, each of its arms holding a body (or,
    for a one-arm statement, its suite on the header's line)."""

    def build(header, arms, bodies, on_line):
        head, others = header
        arms = max(arms, head == "try:")  # a ``try`` needs a handler or a ``finally``
        extra = "    " if head.startswith("match") else ""  # a case's body sits under the case
        if on_line and not others and "\n" not in head:
            return [f"{head} {bodies[0][0] if len(bodies[0]) == 1 and ';' not in bodies[0][0] else 'pass'}"]
        lines = [*head.split("\n"), *_indent(bodies[0], "    " + extra)]
        for arm, inner in zip(others[:arms], bodies[1:]):
            lines += [*arm.split("\n"), *_indent(inner, "    " + extra + ("    " if "\n" in arm else ""))]
        return lines

    return st.builds(
        build,
        st.sampled_from(_HEADERS),
        st.sampled_from([4, 4, 3, 2, 1, 0]),  # how many arms after the first: most, mostly
        st.lists(body, min_size=5, max_size=5),
        st.booleans(),
    )


_BODIES = st.recursive(
    st.lists(_SIMPLE, min_size=1, max_size=2),
    lambda inner: st.lists(st.one_of(_compound(inner), inner), min_size=1, max_size=3).map(lambda ps: sum(ps, [])),
    max_leaves=10,
)


@st.composite
def modules(draw) -> str:
    parts = draw(st.lists(st.one_of(_compound(_BODIES), _BODIES), min_size=1, max_size=4))
    return "\n".join(line for part in parts for line in part) + "\n"


def _statements(tree: cst.CSTNode) -> list[cst.CSTNode]:
    """libcst's statements, by its own walk of every node, in source order."""
    found = findall(tree, (cst.BaseSmallStatement, cst.BaseCompoundStatement))
    return [node for node in found if node is not tree]


def _check(code: str) -> tuple[cst.Module, Bridge]:
    tree = cst.parse_module(code)
    bridge = bridge_of(tree, code)
    mine = _statements(tree)
    theirs = [node for node in ast.walk(bridge.parsed) if isinstance(node, ast.stmt)]
    assert len(mine) == len(theirs)
    positions = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node in mine:
        stmt = bridge.ast_of(node)
        assert stmt is not None and bridge.cst_of(stmt) is node
        kind = type(stmt).__name__.removeprefix("Async").replace("Delete", "Del")
        assert kind == type(node).__name__ or (kind, type(node).__name__) == ("Assign", "TypeAlias")
        assert [n for n, _ in bridge.within(node)] == _statements(node)
        if bridge.as_written and not isinstance(node, (cst.FunctionDef, cst.ClassDef)):  # decorators: a def's own
            assert stmt.lineno == positions[node].start.line, cst.Module([]).code_for_node(node)
    assert all(bridge.cst_of(stmt) is not None for stmt in theirs)
    return tree, bridge


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=modules())
def test_every_statement_is_paired_both_ways_same_kind_same_line(code):
    try:
        cst.parse_module(code)
    except cst.ParserSyntaxError:  # the generator's layout made no Python: nothing to pair
        assume(False)
    _check(code)


def test_an_older_writing_pairs_as_the_text_does():
    code = "t = f'{'nested'}'\nif x:\n    type A = int\n    def f[T](): return 1\n"
    bridge = _check(code)[1]
    assert bridge.as_written is (sys.version_info >= (3, 12))


def test_elif_and_else_holding_an_if_are_both_ast_orelse():
    code = "if a:\n    pass\nelif b:\n    x = 1\nelse:\n    if c: y = 2\n"
    tree, bridge = _check(code)
    assert [type(n).__name__ for n, _ in bridge.within(tree.body[0])] == [
        "Pass",
        "If",
        "Assign",
        "If",
        "Assign",
    ]


def test_statements_that_are_not_the_trees_are_a_tool_bug():
    tree = cst.parse_module("x = 1\ny = 2\n")
    with pytest.raises(MigrationError, match="internal error"):
        Bridge(tree, ast.parse("x = 1\n"), "x = 1\n")
    with pytest.raises(MigrationError, match="internal error"):
        Bridge(tree, ast.parse("x = 1\nif y: pass\n"), "")


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_golden_cases_pair_every_statement(path):
    case = read_case(path)
    for code in {case.source, case.expected}:
        _check(code)


def test_a_block_a_rewrite_emptied_is_the_pass_libcst_writes():
    module = cst.parse_module("class A:\n    x = 1\nif y: z = 1\nelse:\n    w = 2\n")
    cls, test = module.body
    emptied = module.with_changes(
        body=[
            cls.with_changes(body=cls.body.with_changes(body=[])),
            test.with_changes(body=test.body.with_changes(body=[])),
        ]
    )
    code = emptied.code
    assert code == "class A:\n    pass\nif y: pass\nelse:\n    w = 2\n"
    bridge = bridge_of(emptied, code)
    passes = [stmt for stmt in ast.walk(bridge.parsed) if isinstance(stmt, ast.Pass)]
    assert [type(bridge.cst_of(stmt)).__name__ for stmt in passes] == ["IndentedBlock", "SimpleStatementSuite"]
    assert [type(node).__name__ for node, _ in bridge.within(emptied.body[1])] == ["SimpleStatementSuite", "Assign"]
