"""A class body's methods, assignments and methods defined in blocks, read from ``ast``
(``analysis/class_body.py``) and found on libcst's nodes through the bridge."""

from __future__ import annotations

import ast

import libcst as cst
from hijax_migrate.analysis import class_body
from hijax_migrate.analysis.shape import conditional_defs
from hijax_migrate.analysis.summary import bridge_of

BLOCKS = """\
class C:
    if a:
        def f(self): pass
        class Inner:
            def g(self): pass
    elif b:
        def f(self): pass
    try:
        def h(self):
            def inner(self): pass
    except E:
        def k(self): pass
    finally:
        async def m(self): pass
    for x in y:
        pass
    else:
        def n(self): pass
    while c:
        with w:
            match v:
                case 1:
                    def p(self): pass
    def top(self): pass
    q = 1; r.s = 2
"""


def test_methods_defined_in_blocks_at_any_depth_of_blocks_the_first_of_a_name():
    found = class_body.conditional_defs(ast.parse(BLOCKS).body[0])
    assert {name: func.lineno for name, func in found.items()} == {"f": 3, "h": 9, "k": 12, "m": 14, "n": 18, "p": 23}


def test_through_the_bridge_they_are_libcsts_nodes():
    tree = cst.parse_module(BLOCKS)
    found = conditional_defs(tree.body[0], bridge_of(tree, BLOCKS))
    assert {name: node.name.value for name, node in found.items()} == {n: n for n in "fhkmnp"}
    assert all(isinstance(node, cst.FunctionDef) for node in found.values())


def test_methods_and_assignments_of_the_body_itself():
    node = ast.parse(BLOCKS).body[0]
    assert list(class_body.methods(node)) == ["top"]
    assert {name: stmt.lineno for name, stmt in class_body.assignments(node).items()} == {"q": 25, "r": 25, "s": 25}
    one_line = ast.parse("class C: vjp_bwd = f; x = 1\n").body[0]
    assert sorted(class_body.assignments(one_line)) == ["vjp_bwd", "x"]


ARMS = """\
class C:
    if a:
        def f(self): pass
    elif b:
        def f(self): pass
    else:
        if c:
            def f(self): pass
        else:
            def f(self): pass
"""


def test_an_if_chains_arms_an_else_holding_only_an_if_going_on_with_it():
    chain = ast.parse(ARMS).body[0].body[0]
    assert [[stmt.lineno for stmt in arm] for arm in class_body.if_arms(chain)] == [[3], [5], [8], [10]]
    not_only = ast.parse("if a:\n    x\nelse:\n    y\n    if b:\n        z\n").body[0]
    assert [len(arm) for arm in class_body.if_arms(not_only)] == [1, 2]  # the ``else`` is an arm of its own
    assert [len(arm) for arm in class_body.if_arms(ast.parse("if a:\n    x\n").body[0])] == [1]


def test_defs_in_the_arms_of_if_chains_or_none_where_one_stands_elsewhere():
    node = ast.parse(ARMS).body[0]
    assert [func.lineno for func in class_body.branch_defs(node, "f")] == [3, 5, 8, 10]
    assert class_body.branch_defs(node, "g") == []
    elsewhere = [
        "    try:\n        def f(self): pass\n    except E:\n        pass\n",  # another block
        "    if a:\n        for x in y:\n            def f(self): pass\n",  # deeper than an arm
        "    def g(self):\n        def f(self): pass\n",  # in a method
        "    class Inner:\n        def f(self): pass\n",  # in a class
        "    if a:\n        class Inner:\n            def f(self): pass\n",  # in a class in an arm
    ]
    for extra in elsewhere:
        assert class_body.branch_defs(ast.parse(ARMS + extra).body[0], "f") is None, extra


def test_defs_through_blocks_in_source_order_never_into_functions_or_classes():
    node = ast.parse(BLOCKS).body[0]
    assert [f.lineno for f in class_body.defs_in_blocks(node.body, "f")] == [3, 7]
    assert [f.lineno for f in class_body.defs_in_blocks(node.body, "g")] == []  # in a class
    assert [f.lineno for f in class_body.defs_in_blocks(node.body, "inner")] == []  # in a function
    assert [f.lineno for f in class_body.defs_in_blocks(node.body, "top")] == [24]  # the body's own
    assert [f.lineno for f in class_body.defs_in_blocks(node.body, "m")] == [14]  # async
