"""Rules resolve no metadata provider for the qualified names of imported
hijax names (the name model answers), and what they declare only when they
first ask for it (``context.RuleTransformer.resolve``): nothing for a rule
that never asks."""

from __future__ import annotations

import libcst as cst
from hijax_migrate.rules.context import RuleTransformer
from libcst.metadata import MetadataWrapper, ScopeProvider

CODE = "import jax.experimental.hijax as hjx\n\nclass Op(hjx.VJPHiPrimitive):\n    x = hjx.VmapOf\n"


class _Prims:
    def __init__(self, code):
        self.code = code


class Asking(RuleTransformer):
    TRAIL = True
    METADATA_DEPENDENCIES = (ScopeProvider,)

    def __init__(self, word: str, code: str = CODE):
        super().__init__(None, _Prims(code), None, None, None)
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
    rule = Asking("VmapOf")
    wrapper.visit(rule)
    assert [names for names, _ in rule.seen.values()] == [{"jax.experimental.hijax.VmapOf"}]
    assert all(isinstance(parent, cst.Assign) for _, parent in rule.seen.values()) and asked == set()


def test_a_rule_that_never_asks_resolves_nothing(monkeypatch):
    wrapper = MetadataWrapper(cst.parse_module(CODE), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("batch_dim_rule")  # absent: nothing to ask about
    wrapper.visit(rule)
    assert rule.seen == {} and asked == set()


def test_a_name_the_model_is_not_sure_of_is_libcsts_scopes(monkeypatch):
    code = "import jax.experimental.hijax as hjx\n\ndef f(hjx):\n    return hjx.VmapOf\n"
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("VmapOf", code)
    wrapper.visit(rule)
    assert [names for names, _ in rule.seen.values()] == [{"f.<locals>.hjx.VmapOf"}]
    assert "ScopeProvider" in asked
