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
