"""Qualified names from the name model (``analysis/qualified.py``) and parents
from the rule's own visit (``RuleTransformer.qualified_names``, ``parent_of``):
for every node a rule enters, libcst's own answers (its scopes'
``get_qualified_names_for``, which ``QualifiedNameProvider`` asks node by node,
and ``ParentNodeProvider``), with no provider resolved where the model is sure."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.rules.context import RuleTransformer
from libcst.metadata import MetadataWrapper, ParentNodeProvider, ScopeProvider

from golden import read_case

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.py"))


class _Prims:
    """What a rule reads of the engine's ``PrimitiveMap`` here: the module's text, and its
    statements paired with ``ast``'s (made when first asked, as the engine makes them)."""

    def __init__(self, code, module=None):
        self.code, self.module = code, module

    @property
    def bridge(self):
        return bridge_of(self.module, self.code) if self.code is not None else None


class Everything(RuleTransformer):
    """Asks, at each node it enters, for its qualified names and parent."""

    TRAIL = True

    def __init__(self, code: str | None, module: cst.Module | None = None):
        super().__init__(None, _Prims(code, module), None, None, None)
        self.seen = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        entered = super().on_visit(node)
        self.seen[node] = ({q for q in self.qualified_names(node)}, self.parent_of(node))
        return entered


def libcsts(wrapper: MetadataWrapper, node: cst.CSTNode) -> tuple:
    scope = wrapper.resolve(ScopeProvider).get(node)
    names = set(scope.get_qualified_names_for(node)) if scope is not None else set()
    return names, wrapper.resolve(ParentNodeProvider).get(node)


def test_answers_are_libcsts_for_every_node():
    for path in GOLDEN[::6]:
        code = read_case(path).source
        try:
            module = cst.parse_module(code)
        except cst.ParserSyntaxError:
            continue
        rule = Everything(code, module)
        MetadataWrapper(module, unsafe_skip_copy=True).visit(rule)
        full = MetadataWrapper(module, unsafe_skip_copy=True)
        for node, answers in rule.seen.items():
            assert answers == libcsts(full, node), (path.name, cst.Module([]).code_for_node(node)[:60])


def test_imported_names_need_no_provider(monkeypatch):
    asked = []
    resolve_many = MetadataWrapper.resolve_many
    monkeypatch.setattr(
        MetadataWrapper,
        "resolve_many",
        lambda self, providers: asked.extend(providers) or resolve_many(self, providers),
    )
    code = (
        "import jax.numpy as jnp\nfrom jax.experimental import hijax\nx = jnp.sin\n\n\ndef f(y):\n"
        "    return hijax.VmapOf(len(y))\n"
    )
    rule = Everything(code)
    with monkeypatch.context() as patch:
        patch.setattr(Everything, "on_visit", _asking_of_imported)
        MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True).visit(rule)
    names = {q.name for answers in rule.seen.values() for q in answers[0]}
    assert {"jax.numpy.sin", "jax.experimental.hijax.VmapOf", "builtins.len"} <= names and asked == []


def _asking_of_imported(self, node):
    entered = RuleTransformer.on_visit(self, node)
    if isinstance(node, (cst.Attribute, cst.Call)) or isinstance(node, cst.Name) and node.value == "len":
        self.seen[node] = (self.qualified_names(node), self.parent_of(node))
    return entered


def test_a_module_ast_cannot_read_gets_libcsts_scopes():
    """No model (no text, or one ``ast`` cannot read): every answer is libcst's scopes'."""
    code = "import jax.numpy as jnp\nx = jnp.sin\n"
    rule = Everything(None)
    module = cst.parse_module(code)
    MetadataWrapper(module, unsafe_skip_copy=True).visit(rule)
    full = MetadataWrapper(module, unsafe_skip_copy=True)
    assert rule.seen and all(answers == libcsts(full, node) for node, answers in rule.seen.items())
