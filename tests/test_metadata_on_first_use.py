"""Rules resolve the metadata they declare when they first ask for it
(context.RuleTransformer.resolve): the same values as resolving it before
the visit, and nothing resolved for a rule that never asks."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, QualifiedNameProvider

from hijax_migrate.rules.context import RuleTransformer

CODE = "import jax.experimental.hijax as hjx\n\nclass Op(hjx.VJPHiPrimitive):\n    x = hjx.VmapOf\n"


class Asking(RuleTransformer):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider)

    def __init__(self, word: str):
        super().__init__(None, None, None, None, None)
        self.word, self.seen = word, {}

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == self.word:
            self.seen[node] = (self.get_metadata(QualifiedNameProvider, node, set()),
                               self.get_metadata(ParentNodeProvider, node))


class Eager(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider)

    def __init__(self):
        super().__init__()
        self.seen = {}

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.seen[node] = (self.get_metadata(QualifiedNameProvider, node, set()),
                           self.get_metadata(ParentNodeProvider, node))


def spy_on_resolving(monkeypatch) -> set[str]:
    """The names of the providers any wrapper is asked to resolve from now on."""
    asked: set[str] = set()
    resolve_many = MetadataWrapper.resolve_many

    def spied(wrapper, providers):
        asked.update(provider.__name__ for provider in providers)
        return resolve_many(wrapper, providers)

    monkeypatch.setattr(MetadataWrapper, "resolve_many", spied)
    return asked


def test_metadata_asked_for_is_what_resolving_first_gives():
    wrapper = MetadataWrapper(cst.parse_module(CODE), unsafe_skip_copy=True)
    eager, lazy = Eager(), Asking("VmapOf")
    wrapper.visit(eager)
    wrapper.visit(lazy)
    assert lazy.seen and all(lazy.seen[node] == eager.seen[node] for node in lazy.seen)
    names = {q.name for value in lazy.seen.values() for q in value[0]}
    assert names == {"jax.experimental.hijax.VmapOf"}


def test_a_rule_that_never_asks_resolves_nothing(monkeypatch):
    wrapper = MetadataWrapper(cst.parse_module(CODE), unsafe_skip_copy=True)
    asked = spy_on_resolving(monkeypatch)
    rule = Asking("batch_dim_rule")  # absent: nothing to ask about
    wrapper.visit(rule)
    assert rule.seen == {} and asked == set()
    wrapper.visit(Asking("VmapOf"))
    # Qualified names are read from the scopes, parents from the visit itself (context._Qualified, _Parents).
    assert "ScopeProvider" in asked and not {"QualifiedNameProvider", "ParentNodeProvider"} & asked
