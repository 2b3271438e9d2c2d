"""Edits a rule decides on a tree, applied together by rebuilding only the
nodes on the way to them.

A rule that knows its targets before it walks (the base rename: the uses an
import binds, attributes found from the fields) returns ``Edit``s instead of
transforming the module: a libcst transform rebuilds every node of it (a
second of jax's hijax_test.py), this rebuilds the few paths to the edits.
Nodes off those paths stay the input's own objects.

Edits apply bottom-up: an edit of a node receives it as the edits inside it
left it, as a transformer's ``leave_`` receives ``updated_node``. Two edits of
one node are a conflict: a tool error naming both rules, never a choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import libcst as cst

from ..analysis.nodes import LazyParents, field_names
from ..core.errors import tool_bug


@dataclass(frozen=True)
class Edit:
    node: cst.CSTNode  # a node of the tree the rule decided on
    replace: Callable[[cst.CSTNode], cst.CSTNode]  # the node, as edits inside it left it -> its replacement
    rule: str  # the code of the rule that decided it


def apply_edits(module: cst.Module, edits: Iterable[Edit], parents) -> cst.Module:
    """``module`` with every edit applied; ``parents``: node -> parent, for the edited nodes' ancestors."""
    by_node: dict[cst.CSTNode, Edit] = {}
    for edit in edits:
        if edit.node in by_node:
            raise tool_bug(f"rules {by_node[edit.node].rule} and {edit.rule} both edit one node", 0)
        by_node[edit.node] = edit
    if not by_node:
        return module
    return _rebuild(module, _on_the_way(module, by_node, parents), by_node)


def _on_the_way(module: cst.Module, targets: dict, parents) -> set[cst.CSTNode]:
    """The targets and every node between them and ``module``."""
    on_way: set[cst.CSTNode] = set()
    for node, edit in targets.items():
        while node is not module and node not in on_way:
            on_way.add(node)
            try:
                node = parents[node]
            except KeyError:
                raise tool_bug(f"rule {edit.rule} edits a node of another tree", 0) from None
    return on_way


def _rebuild(node: cst.CSTNode, on_way: set, edits: dict) -> cst.CSTNode:
    changes = {}
    for name in field_names(node):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode) and value in on_way:
            changes[name] = _rebuild(value, on_way, edits)
        elif isinstance(value, (list, tuple)) and any(_is_on(item, on_way) for item in value):
            changes[name] = type(value)(
                _rebuild(item, on_way, edits) if _is_on(item, on_way) else item for item in value
            )
    updated = node.with_changes(**changes) if changes else node
    edit = edits.get(node)
    if edit is None:
        return updated
    replaced = edit.replace(updated)
    if not isinstance(replaced, cst.CSTNode):
        raise tool_bug(f"rule {edit.rule}'s edit gave {type(replaced).__name__}, not a node", 0)
    return replaced


def _is_on(item: object, on_way: set) -> bool:
    return isinstance(item, cst.CSTNode) and item in on_way


class EditingRule:
    """Mixin for a ``RuleTransformer`` that decides edits (``decide``) instead
    of transforming the module: the engine's ``rewrite`` call applies them."""

    parents = None  # node -> parent, for the nodes edited: ``decide`` may set a map it built anyway

    def decide(self, module: cst.Module) -> list[Edit]:
        raise NotImplementedError

    def rewrite(self, wrapper: cst.MetadataWrapper) -> cst.Module:
        with self.resolve(wrapper):
            edits = self.decide(wrapper.module)
        parents = self.parents if self.parents is not None else LazyParents(wrapper.module)
        return apply_edits(wrapper.module, edits, parents)
