"""Bases probed when the code runs (``analysis.probes``): the one reading, which
triage asks and the migration maps onto its tree's assignments."""

from __future__ import annotations

import ast

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import parse_ast, summarize_ast
from hijax_migrate.analysis.probes import assignments, probes, users
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.engine.undecided import _probes

from golden import GOLDEN, read_case

PROBED = """\
from jax.experimental import hijax
import importlib
Base = getattr(hijax, "HiPrim", None) or hijax.VJPHiPrimitive
Other = pick(
    "HiPrim")
Plain = pick("x")
a = b = pick(hijax.HiPrim)
Named = hijax.HiPrim
def later():
    Base = resolve(hijax.VJPHiPrimitive)
class Op(Base):
    pass
class Sub(Other.Inner, hijax.HiPrim):
    pass
class Free(Named):
    pass
"""


def test_probes_are_assignments_to_a_name_from_a_call_naming_a_hijax_class():
    tree = ast.parse(PROBED)
    found = probes(tree, PROBED)
    assert {name: stmt.lineno for name, stmt in found.items()} == {"Base": 10, "Other": 4}
    infos = summarize_ast(tree)[0].classes
    assert [infos[i].qualname for i in users(infos, "Base")] == ["Op"]
    assert [infos[i].qualname for i in users(infos, "Other")] == ["Sub"]
    assert probes(tree, PROBED.replace("HiPrim", "Hi").replace("VJPHiPrimitive", "V")) == {}


def test_each_probe_is_mapped_onto_the_trees_assignment():
    tree = cst.parse_module(PROBED)
    found = _probes(bridge_of(tree, PROBED), PROBED)
    code = cst.Module([]).code_for_node
    assert {name: code(node) for name, node in found.items()} == {
        "Base": "Base = resolve(hijax.VJPHiPrimitive)",
        "Other": 'Other = pick(\n    "HiPrim")',
    }


def test_a_probe_in_newer_syntax_is_read_from_its_older_writing():
    code = PROBED + 'label = f"{"nested"}"\nLast = make(f"{HiPrim}")\n'
    with pytest.raises(SyntaxError):
        ast.parse(code)
    found = _probes(bridge_of(cst.parse_module(code), code), code)
    assert sorted(found) == ["Base", "Last", "Other"]  # the f-string's words are kept


def test_type_statements_are_no_assignments_of_the_tree():
    code = "type Pair[T] = tuple[T, T]\n" + PROBED
    assert [stmt.lineno for stmt in assignments(parse_ast(code))][:2] == [4, 5]
    assert sorted(_probes(bridge_of(cst.parse_module(code), code), code)) == ["Base", "Other"]


@pytest.mark.parametrize(
    "path", [path for path in sorted(GOLDEN.glob("*.py")) if "HiPrim" in path.read_text()], ids=lambda p: p.stem
)
def test_golden_probes_map_onto_assignments_of_their_name_and_line(path):
    from libcst.metadata import MetadataWrapper, PositionProvider

    for code in {read_case(path).source, read_case(path).expected}:
        tree = cst.parse_module(code)
        found = _probes(bridge_of(tree, code), code)
        parsed = parse_ast(code)
        lines = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
        for name, stmt in probes(parsed, code).items():
            node = found[name]
            assert node.targets[0].target.value == stmt.targets[0].id == name
            assert lines[node].start.line == stmt.lineno
