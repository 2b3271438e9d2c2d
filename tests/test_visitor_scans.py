"""visitor_scans: libcst's scans of a visitor's attributes, made once a class,
give libcst's own answers; a visitor not of libcst's is scanned every time;
leaving the context puts libcst back as it was."""

from __future__ import annotations

import types

import libcst as cst
import libcst.matchers as m
import pytest
from hijax_migrate.analysis.visitor_scans import batched_scans_once, matcher_scans_once
from libcst import _batched_visitor
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, GatherImportsVisitor, RemoveImportsVisitor
from libcst.matchers import _visitors as matcher_visitors
from libcst.metadata import (
    ExpressionContextProvider,
    MetadataWrapper,
    ParentNodeProvider,
    QualifiedNameProvider,
    ScopeProvider,
)

from golden import all_cases, read_case

PROVIDERS = (ScopeProvider, ExpressionContextProvider, ParentNodeProvider, QualifiedNameProvider)


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda p: p.__name__)
def test_a_providers_visit_methods_are_libcsts(provider):
    expected = provider().get_visitors()
    assert expected  # a provider that visits nothing would prove nothing
    with batched_scans_once():
        for _ in range(2):  # the scan, then the answer kept for the class
            visitor = provider()
            found = visitor.get_visitors()
            assert list(found) == list(expected)
            assert all(found[name].__self__ is visitor for name in found)
            assert {name: method.__func__ for name, method in found.items()} == {
                name: method.__func__ for name, method in expected.items()
            }


class _OwnVisitor(_batched_visitor.BatchableCSTVisitor):
    """A visitor not of libcst's: what it visits may differ between instances."""

    def __init__(self, names: bool):
        super().__init__()
        if names:

            def visit_Name(self, node):
                pass

            self.visit_Name = types.MethodType(visit_Name, self)

    def visit_Call(self, node):
        pass


def test_a_visitor_not_of_libcsts_is_scanned_each_time():
    with batched_scans_once():
        assert sorted(_OwnVisitor(True).get_visitors()) == ["visit_Call", "visit_Name"]
        assert sorted(_OwnVisitor(False).get_visitors()) == ["visit_Call"]


def _metadata(module: cst.Module) -> tuple:
    """What the scopes and parents say of every node (nodes in the visit's
    order; the same module each time, so the same node objects)."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scopes, parents = wrapper.resolve(ScopeProvider), wrapper.resolve(ParentNodeProvider)
    said = []
    for node, scope in scopes.items():
        names = scope.get_qualified_names_for(node) if scope is not None and isinstance(node, cst.Name) else ()
        said.append(
            (
                node,
                type(scope).__name__,
                sorted((q.name, q.source.name) for q in names),
                sorted(scope.assignments._assignments) if scope is not None else None,
            )
        )
    return said, dict(parents)


def test_metadata_of_golden_inputs_is_libcsts():
    for path in all_cases()[::10]:  # the visit methods are held to libcst's above: these, the whole way
        module = cst.parse_module(read_case(path).source)
        expected = _metadata(module)
        with batched_scans_once():
            assert _metadata(module) == expected, path.name
            assert _metadata(module) == expected, path.name  # from the kept answers


class _Decorated(m.MatcherDecoratableTransformer):
    @m.visit(m.Name("x"))
    def saw_x(self, node: cst.Name) -> None:
        self.seen.append(node.value)


def test_matcher_visitors_find_what_libcst_finds():
    context = CodemodContext()
    for visitor in (AddImportsVisitor, RemoveImportsVisitor, GatherImportsVisitor):
        expected = visitor(context)
        with matcher_scans_once():
            for _ in range(2):
                found = visitor(context)
                assert found._extra_visit_funcs == expected._extra_visit_funcs == {}
                assert found._extra_leave_funcs == expected._extra_leave_funcs == {}
                assert found._matchers == expected._matchers == {}
                assert found._extra_visit_funcs is not found.__class__(context)._extra_visit_funcs
    with matcher_scans_once():
        for _ in range(2):  # a visitor not of libcst's keeps its decorated method
            decorated = _Decorated()
            decorated.seen = []
            cst.parse_module("x = y + x\n").visit(decorated)
            assert decorated.seen == ["x", "x"]


def test_leaving_puts_libcst_back_as_it_was():
    batched = _batched_visitor.BatchableCSTVisitor.__dict__["get_visitors"]
    scans = {
        name: getattr(matcher_visitors, name)
        for name in ("_gather_matchers", "_gather_constructed_visit_funcs", "_gather_constructed_leave_funcs")
    }
    with pytest.raises(RuntimeError):
        with batched_scans_once(), matcher_scans_once():
            with batched_scans_once(), matcher_scans_once():  # nested, as a migration may nest
                assert _batched_visitor.BatchableCSTVisitor.__dict__["get_visitors"] is not batched
                raise RuntimeError
    assert _batched_visitor.BatchableCSTVisitor.__dict__["get_visitors"] is batched
    assert {name: getattr(matcher_visitors, name) for name in scans} == scans
