"""dispatch: QuickVisitor and QuickTransformer call the methods libcst's own
dispatch calls, in the same order, with the same results, on every golden
input; a class with a field's method keeps libcst's field dispatch."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.dispatch import QuickTransformer, QuickVisitor

from golden import all_cases, read_case

PACKAGE = Path(__file__).resolve().parent.parent / "codemods" / "hijax_migrate"
INPUTS = [read_case(path).source for path in all_cases()[::10]]


class _Recording:
    """Methods of several kinds: a visit that prunes, leaves that replace, a field's method."""

    def __init__(self):
        super().__init__()
        self.log = []

    def visit_ClassDef(self, node):
        self.log.append(("visit", "ClassDef", node.name.value))

    def visit_Lambda(self, node):
        self.log.append(("visit", "Lambda"))
        return False  # children not visited

    def visit_Name(self, node):
        self.log.append(("visit", "Name", node.value))

    def visit_Return(self, node):
        self.log.append(("visit", "Return"))
        return None  # not False: children visited


class _RecordingVisitor(_Recording):
    def leave_Name(self, original_node):
        self.log.append(("leave", "Name", original_node.value))

    def leave_FunctionDef(self, original_node):
        self.log.append(("leave", "FunctionDef", original_node.name.value))


class _RecordingTransformer(_Recording):
    def leave_Name(self, original_node, updated_node):
        self.log.append(("leave", "Name", original_node.value))
        return updated_node.with_changes(value=updated_node.value + "_x") if updated_node.value == "g" else updated_node

    def leave_Pass(self, original_node, updated_node):
        return cst.RemoveFromParent()

    def leave_FunctionDef(self, original_node, updated_node):
        self.log.append(("leave", "FunctionDef", original_node.name.value))
        return updated_node


class LibcstVisitor(_RecordingVisitor, cst.CSTVisitor):
    pass


class QuickRecordingVisitor(_RecordingVisitor, QuickVisitor):
    pass


class LibcstTransformer(_RecordingTransformer, cst.CSTTransformer):
    pass


class QuickRecordingTransformer(_RecordingTransformer, QuickTransformer):
    pass


@pytest.mark.parametrize("index", range(len(INPUTS)))
def test_the_same_calls_in_the_same_order_as_libcsts(index):
    module = cst.parse_module(INPUTS[index])
    ours, theirs = QuickRecordingVisitor(), LibcstVisitor()
    assert module.visit(ours) is module.visit(theirs) is module
    assert ours.log == theirs.log and ours.log
    ours, theirs = QuickRecordingTransformer(), LibcstTransformer()
    assert module.visit(ours).code == module.visit(theirs).code
    assert ours.log == theirs.log


class _Fields(QuickVisitor):
    def __init__(self):
        super().__init__()
        self.log = []

    def visit_ClassDef_bases(self, node):
        self.log.append(("bases", node.name.value))

    def leave_ClassDef_body(self, node):
        self.log.append(("body", node.name.value))


def test_a_fields_method_is_still_called():
    module = cst.parse_module("class A(B):\n    x = 1\n\nclass C:\n    pass\n")
    visitor = _Fields()
    module.visit(visitor)
    assert visitor.log == [("bases", "A"), ("body", "A"), ("bases", "C"), ("body", "C")]


def test_libcsts_field_dispatch_is_kept_only_where_a_field_has_a_method():
    assert _Fields.on_visit_attribute is cst.CSTVisitor.on_visit_attribute
    assert QuickRecordingVisitor.on_visit_attribute is not cst.CSTVisitor.on_visit_attribute
    assert QuickRecordingTransformer.on_leave_attribute is not cst.CSTTransformer.on_leave_attribute


def test_each_class_finds_its_own_methods():
    """A subclass that overrides a method is dispatched to its own, though its base's answer is kept."""
    module = cst.parse_module("x = y\n")
    base = QuickRecordingVisitor()
    module.visit(base)

    class Louder(QuickRecordingVisitor):
        def visit_Name(self, node):
            self.log.append(("LOUD", node.value))

    louder = Louder()
    module.visit(louder)
    assert base.log == [("visit", "Name", "x"), ("leave", "Name", "x"), ("visit", "Name", "y"), ("leave", "Name", "y")]
    assert louder.log == [("LOUD", "x"), ("leave", "Name", "x"), ("LOUD", "y"), ("leave", "Name", "y")]


_METHOD = re.compile(r"(visit|leave)_[A-Z]")


def test_no_visitor_of_the_tool_sets_a_visit_method_on_an_instance():
    """What the quick dispatch cannot see (it reads a class's methods) never happens in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, (ast.AnnAssign, ast.AugAssign))
                else []
            )
            named = [t.attr for t in targets if isinstance(t, ast.Attribute)]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                named += [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            found += [f"{path.name}:{node.lineno}" for name in named if _METHOD.match(name)]
    assert found == []
