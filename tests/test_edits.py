"""Edits applied together (``rules.edits``) give what a libcst transformer making
the same replacements gives, byte for byte, on every golden input; nodes off
the edited paths stay the input's own; two edits of one node are a tool error.
(``parents_under`` is held to libcst's parents by test_lazy_parents.)"""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.cst_blocks import small_statements
from hijax_migrate.analysis.nodes import LazyParents, findall, parents_under
from hijax_migrate.core.errors import MigrationError
from hijax_migrate.rules.edits import Edit, apply_edits

from golden import read_case

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.py"))


def _replacement(node: cst.CSTNode):
    """A change of each kind a rule makes: a name's value, an attribute's name, a call's arguments."""
    if isinstance(node, cst.Name):
        return lambda updated: updated.with_changes(value=updated.value + "_x")
    if isinstance(node, cst.Attribute):
        return lambda updated: updated.with_changes(attr=cst.Name(updated.attr.value + "_y"))
    return lambda updated: updated.with_changes(args=[*updated.args, cst.Arg(cst.Integer("0"), keyword=cst.Name("z"))])


class _SameByTransform(cst.CSTTransformer):
    def __init__(self, chosen: dict):
        super().__init__()
        self.chosen = chosen

    def on_leave(self, original_node, updated_node):
        replace = self.chosen.get(original_node)
        return replace(updated_node) if replace else updated_node


def _chosen(parents: dict, order: random.Random) -> dict:
    """Some names, attributes and calls, nested ones among them."""
    nodes = [node for node in parents if isinstance(node, (cst.Name, cst.Attribute, cst.Call))]
    return {node: _replacement(node) for node in order.sample(nodes, min(len(nodes), order.randint(1, 12)))}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_edits_give_what_a_transformer_gives(path):
    order = random.Random(path.name)
    module = cst.parse_module(read_case(path).source)
    every = parents_under(module)
    for _ in range(2):
        chosen = _chosen(every, order)
        edits = [Edit(node, replace, "HJX900") for node, replace in chosen.items()]
        order.shuffle(edits)
        parents = LazyParents(module) if order.random() < 0.5 else every
        try:
            expected = module.visit(_SameByTransform(chosen)).code
        except cst.CSTValidationError:  # a change libcst refuses there (a match pattern's `None`)
            with pytest.raises(cst.CSTValidationError):
                apply_edits(module, edits, parents)
            continue
        applied = apply_edits(module, edits, parents)
        assert applied.code == expected
        touched = {_statement_of(node, module, every) for node in chosen}
        assert all(kept is stmt for stmt, kept in zip(module.body, applied.body) if stmt not in touched)


def _statement_of(node: cst.CSTNode, module: cst.Module, parents: dict) -> cst.CSTNode:
    while parents.get(node, module) is not module:
        node = parents[node]
    return node


def test_nodes_off_the_edited_paths_are_the_inputs_own():
    module = cst.parse_module("a = 1\nb = f(x)\nc = 3\n")
    call = module.body[1].body[0].value
    applied = apply_edits(module, [Edit(call.func, _replacement(call.func), "HJX900")], parents_under(module))
    assert applied.code == "a = 1\nb = f_x(x)\nc = 3\n"
    assert applied.body[0] is module.body[0] and applied.body[2] is module.body[2]
    assert applied.body[1] is not module.body[1] and applied.body[1].body[0].value.args is call.args


def test_an_outer_edit_receives_the_node_as_the_inner_edits_left_it():
    module = cst.parse_module("y = a.b\n")
    attribute = module.body[0].body[0].value
    edits = [
        Edit(attribute, _replacement(attribute), "HJX901"),
        Edit(attribute.value, _replacement(attribute.value), "HJX902"),
    ]
    assert apply_edits(module, edits, parents_under(module)).code == "y = a_x.b_y\n"


def test_two_edits_of_one_node_are_a_tool_error_naming_both_rules():
    module = cst.parse_module("x = 1\n")
    name = module.body[0].body[0].targets[0].target
    edits = [Edit(name, _replacement(name), "HJX003"), Edit(name, _replacement(name), "HJX006")]
    with pytest.raises(MigrationError, match="HJX003 and HJX006 both edit one node"):
        apply_edits(module, edits, parents_under(module))


def test_an_edit_of_a_node_of_another_tree_is_a_tool_error():
    module, other = cst.parse_module("x = 1\n"), cst.parse_module("y = 2\n")
    name = other.body[0].body[0].targets[0].target
    with pytest.raises(MigrationError, match="HJX003 edits a node of another tree"):
        apply_edits(module, [Edit(name, _replacement(name), "HJX003")], parents_under(module))


def test_small_statements_are_the_nodes_findall_finds_in_order():
    for path in GOLDEN:
        module = cst.parse_module(read_case(path).source)
        for kind in (cst.ImportFrom, cst.Return):
            assert small_statements(module, kind) == findall(module, kind), (path.name, kind)
    module = cst.parse_module("if x: from a import b\nelse:\n    try: pass\n    except E: from c import d\n")
    assert [n.module.value for n in small_statements(module, cst.ImportFrom)] == ["a", "c"]


def test_positions_are_libcsts_and_resolved_once():
    from hijax_migrate.analysis.nodes import positions
    from libcst.metadata import MetadataWrapper, PositionProvider

    for path in GOLDEN[::4]:
        module = cst.parse_module(read_case(path).source)
        mine, theirs = MetadataWrapper(module, unsafe_skip_copy=True), MetadataWrapper(module, unsafe_skip_copy=True)
        found, expected = positions(mine), theirs.resolve(PositionProvider)
        assert dict(found) == dict(expected), path.name
        assert mine.resolve(PositionProvider) is found and positions(mine) is found
