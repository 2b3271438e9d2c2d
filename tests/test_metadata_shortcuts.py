"""Qualified names read node by node from the scopes, and parents read from
the rule's own visit (rules/context.py): for every node of a module, and for
nodes of no module, the answers of libcst's providers resolved in full."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, QualifiedNameProvider

from hijax_migrate.rules.context import RuleTransformer

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
MISSING = object()


class Everything(RuleTransformer):
    """Asks, at each node it enters, for its qualified names and parent; at the end, for
    those of a node of no module (the shortcuts' fallback: the full resolution)."""
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider)

    def __init__(self):
        super().__init__(None, None, None, None, None)
        self.seen = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        entered = super().on_visit(node)
        self._record(node)
        return entered

    def leave_Module(self, original_node, updated_node):
        self._record(cst.Name("stray"))
        return updated_node

    def _record(self, node):
        self.seen[node] = tuple(self._ask(provider, node) for provider in self.METADATA_DEPENDENCIES)

    def _ask(self, provider, node):
        plain = self.get_metadata(provider, node, MISSING)
        try:
            strict = self.get_metadata(provider, node)
        except KeyError:
            strict = MISSING
        return (set(plain) if provider is QualifiedNameProvider and plain is not MISSING else plain), strict


class Ahead(Everything):
    """Asks, at the module, for the module's last statement: one the visit has not entered."""

    def visit_Module(self, node):
        if node.body:
            self._record(node.body[-1])
        return False


def full(wrapper: MetadataWrapper, node: cst.CSTNode) -> tuple:
    answers = []
    for provider in Everything.METADATA_DEPENDENCIES:
        value = wrapper.resolve(provider).get(node, MISSING)
        value = value() if callable(value) else value  # QualifiedNameProvider keeps LazyValues
        value = set(value) if provider is QualifiedNameProvider and value is not MISSING else value
        answers.append((value, value))
    return tuple(answers)


class NeverStrays(Everything):
    def leave_Module(self, original_node, updated_node):
        return updated_node  # no node of another tree asked for


def test_a_visit_that_never_strays_resolves_neither_provider():
    wrapper = MetadataWrapper(cst.parse_module("import jax.numpy as jnp\nx = jnp.sin\n"), unsafe_skip_copy=True)
    rule = NeverStrays()
    wrapper.visit(rule)
    assert rule.seen and not {QualifiedNameProvider, ParentNodeProvider} & set(wrapper._metadata)
    names = {q.name for answers in rule.seen.values() for q in answers[0][0]}
    assert "jax.numpy.sin" in names


def test_shortcuts_give_the_full_resolutions_answers_for_every_node():
    cases = sorted(GOLDEN.glob("*.py"))[::12]
    assert cases
    for case in cases:
        code = case.read_text().split("\n# output\n")[0]
        try:
            module = cst.parse_module(code)
        except cst.ParserSyntaxError:
            continue
        full_wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        for rule in Everything(), Ahead():
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)  # a fresh one: nothing resolved yet
            wrapper.visit(rule)
            assert rule.seen
            for node, answers in rule.seen.items():
                assert answers == full(full_wrapper, node), (case.name, type(rule).__name__, node)
