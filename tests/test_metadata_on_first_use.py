"""Rules resolve no metadata provider for the qualified names of the names
the model resolves (imported hijax names, a function's own), and what they
declare only when they first ask for it (``context.RuleTransformer.resolve``):
nothing for a rule that never asks; no golden case resolves libcst's analyses."""

from __future__ import annotations

import ast

import libcst as cst
import pytest
from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.rules.context import RuleTransformer
from libcst.metadata import MetadataWrapper, ScopeProvider
from test_golden import options_for

from golden import all_cases, read_case

CODE = "import jax.experimental.hijax as hjx\n\nclass Op(hjx.VJPHiPrimitive):\n    x = hjx.VmapOf\n"


class _Prims:
    def __init__(self, code, tree):
        self.code, self.bridge = code, bridge_of(tree, code)


class Asking(RuleTransformer):
    TRAIL = True
    METADATA_DEPENDENCIES = (ScopeProvider,)

    def __init__(self, word: str, tree: cst.Module, code: str = CODE):
        super().__init__(None, _Prims(code, tree), None, None, None)
        self.word, self.seen = word, {}

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == self.word:
            self.seen[node] = ({q.name for q in self.qualified_names(node)}, self.parent_of(node))


def spy_on_resolving(monkeypatch) -> set[str]:
    """The names of the providers any wrapper is asked to resolve from now on."""
    asked: set[str] = set()
    resolve_many = MetadataWrapper.resolve_many

    def spied(wrapper, providers):
        asked.update(provider.__name__ for provider in providers)
        return resolve_many(wrapper, providers)

    monkeypatch.setattr(MetadataWrapper, "resolve_many", spied)
    return asked


def test_qualified_names_of_imported_names_resolve_nothing(monkeypatch):
    wrapper = MetadataWrapper(cst.parse_module(CODE), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("VmapOf", wrapper.module)
    wrapper.visit(rule)
    assert [names for names, _ in rule.seen.values()] == [{"jax.experimental.hijax.VmapOf"}]
    assert all(isinstance(parent, cst.Assign) for _, parent in rule.seen.values()) and asked == set()


def test_a_rule_that_never_asks_resolves_nothing(monkeypatch):
    wrapper = MetadataWrapper(cst.parse_module(CODE), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("batch_dim_rule", wrapper.module)  # absent: nothing to ask about
    wrapper.visit(rule)
    assert rule.seen == {} and asked == set()


@pytest.mark.parametrize(
    "code, names, scopes",
    [
        (  # a function's own name of it: resolved as Python resolves it, no provider
            "import jax.experimental.hijax as hjx\n\ndef f(hjx):\n    return hjx.VmapOf\n",
            {"f.<locals>.hjx.VmapOf"},
            False,
        ),
        (  # in a ``match``, where the model does not place a node: libcst's scopes answer
            "import jax.experimental.hijax as hjx\n\nmatch v:\n    case hjx.VmapOf():\n        hjx = 1\n",
            {"jax.experimental.hijax.VmapOf", "hjx.VmapOf"},
            True,
        ),
    ],
    ids=["a function's own name", "in a match"],
)
def test_a_name_an_import_does_not_alone_bind(code, names, scopes, monkeypatch):
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("VmapOf", wrapper.module, code)
    wrapper.visit(rule)
    assert [found for found, _ in rule.seen.values()] == [names]
    assert ("ScopeProvider" in asked) == scopes


_ANALYSES = {"ScopeProvider", "ParentNodeProvider", "QualifiedNameProvider"}


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_no_golden_input_needs_libcsts_analyses(path, monkeypatch):
    """libcst only applies edits: no golden case ``ast`` reads, migrated as its flags say,
    resolves libcst's scopes, parents or qualified names (the name model answers)."""
    case = read_case(path)
    try:
        ast.parse(case.source)
    except SyntaxError:
        pytest.skip("syntax newer than this Python: no name model, libcst's scopes answer")
    options = options_for(case.flags)
    asked = spy_on_resolving(monkeypatch)
    try:
        migrate_source(case.source, path.name, options, Project(options.extra_bases))
    except MigrationError:
        pass
    assert not asked & _ANALYSES
