"""The migrated file's summary is ``ast_summary``'s, its ClassInfos paired with
the libcst tree's class statements by order; a text ``ast`` cannot read (newer
syntax) is summarised in older syntax, as it would be written for 3.11."""

from __future__ import annotations

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import parse_ast, summarize_ast
from hijax_migrate.analysis.summary import bridge_of, older_code, summarize, summarize_tree
from hijax_migrate.core.errors import MigrationError
from libcst.metadata import MetadataWrapper, PositionProvider
from test_fast_analysis import TRICKY, _shape

from golden import GOLDEN, read_case


def _texts(path):
    case = read_case(path)
    return sorted({case.source, case.expected})


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_golden_classes_are_paired_with_their_statements(path):
    for code in _texts(path):
        tree = cst.parse_module(code)
        summary, nodes = summarize_tree(tree, code, "pkg.mod")
        statements = summarize_ast(parse_ast(code), "pkg.mod")[1]  # the ast statement behind each ClassInfo
        lines = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
        assert len(nodes) == len(summary.classes) == len(statements)
        for info, node, stmt in zip(summary.classes, nodes, statements):
            assert node.name.value == stmt.name == info.qualname.rsplit(".", 1)[-1]
            assert lines[node].start.line == stmt.lineno, info.qualname


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_golden_inputs_summarised_alike_in_older_syntax(path):
    """The summary of a text written out older (f-strings as tuples) is its own."""
    for code in _texts(path):
        tree = cst.parse_module(code)
        for is_package in (False, True):
            direct = summarize_tree(tree, code, "pkg.sub.mod", is_package)[0]
            assert _shape(summarize(tree, "pkg.sub.mod", is_package)) == _shape(direct)


NEWER = '''\
from jax.experimental import hijax
label = f"{"nested"}"
both = ("a" f"{label!r:{'b'}}"
        f"""
{label}""")
greeting = t"hello {label}"
def helper[T=int](value: T) -> T:
    return value
try:
    import fast as impl
except ImportError, KeyError:
    class InExcept(hijax.VJPHiPrimitive):
        def vjp_bwd(self, res, g):
            print(f"{"q"}")
            return (g,)
Made = type("Made", (hijax.VJPHiPrimitive,), {f"vjp_bwd": helper, "vjp_fwd": helper})
Kept = type("Kept", (InExcept,), {"vjp_fwd": helper})
class After(InExcept if both else object):
    pass
'''

# NEWER as this Python writes it: what each string is does not matter to a summary.
OLDER = (
    NEWER.replace('f"{"nested"}"', "1")
    .replace('f"{"q"}"', "g")
    .replace("ImportError, KeyError", "(ImportError, KeyError)")
    .replace('t"hello {label}"', "2")
    .replace('f"vjp_bwd"', "-0")
    .replace('"a" f"{label!r:{\'b\'}}"\n        f"""\n{label}"""', "3\n\n")
)


def test_newer_syntax_summarised_as_its_older_writing():
    with pytest.raises(SyntaxError):
        parse_ast(NEWER)
    tree = cst.parse_module(NEWER)
    summary, nodes = summarize_tree(tree, NEWER, "m")
    assert _shape(summary) == _shape(summarize_ast(parse_ast(OLDER), "m")[0])
    assert [(info.qualname, node.name.value) for info, node in zip(summary.classes, nodes)] == [
        ("InExcept", "InExcept"),
        ("After", "After"),
    ]
    assert [info.qualname for info in summary.factories] == ["Kept"]  # Made's keys are not all written out
    older = older_code(tree)
    assert older.count("\n") == NEWER.count("\n")  # each statement on its lines
    assert '\'f"{"nested"}"\'' in older  # a string's words stay in the text


def test_tricky_module_summarised_alike_in_older_syntax():
    tree = cst.parse_module(TRICKY)
    assert _shape(summarize(tree, "pkg")) == _shape(summarize_tree(tree, TRICKY, "pkg")[0])


def test_what_no_writing_makes_readable_is_a_migration_error(monkeypatch):
    from hijax_migrate.analysis import summary

    monkeypatch.setattr(summary, "older_code", lambda tree: "class (:\n")
    with pytest.raises(MigrationError):
        summarize(cst.parse_module("x = 1\n"))


def test_class_statements_in_source_order_at_any_depth():
    tree = cst.parse_module(TRICKY)
    classes = bridge_of(tree, TRICKY).statements(cst.ClassDef)
    assert [node.name.value for node, _ in classes] == [
        "Outer",
        "Inner",
        "Local",
        "InAsync",
        "InLoop",
        "InWith",
        "InElse",
        "InCase",
    ]


def test_a_tree_that_is_not_the_text_is_a_tool_bug():
    with pytest.raises(MigrationError, match="internal error"):
        summarize_tree(cst.parse_module("class A:\n    pass\n"), "class B:\n    pass\n")
