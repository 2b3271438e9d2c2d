"""A primitive's inputs, read from ``ast`` (analysis/fwd_signature.py): their number (HJX002's
``nzs_in`` test) and their names (``ClassShape.inputs``, the accumulators HJX001 writes) are one
reading. Every class drawn from the forms below: ``in_avals`` decides the number where ``__init__``
sets it, ``expand``'s required parameters where it has no ``*args``, else ``vjp_fwd``'s names."""

from __future__ import annotations

import ast
import itertools

import libcst as cst
import pytest
from hijax_migrate.analysis import class_body
from hijax_migrate.analysis.fwd_signature import inherited_inputs, input_count, input_names
from hijax_migrate.analysis.shape import class_shape
from hijax_migrate.analysis.summary import bridge_of

INITS = [
    "",
    "    def __init__(self):\n        self.in_avals = (a, b)\n",
    "    def __init__(self):\n        self.in_avals = [a, {}, (b,)]\n",
]
EXPANDS = [
    "",
    "    def expand(self, x, y):\n        pass\n",
    "    def expand(self, x, y=1):\n        pass\n",
    "    def expand(self, *xs):\n        pass\n",
]
FWDS = [
    "",
    "    def vjp_fwd(self, nzs_in, x, y):\n        pass\n",
    "    def vjp_fwd(self, x):\n        pass\n",
    "    def vjp_fwd(self, *args):\n        pass\n",
]


def classes():
    for init, expand, fwd in itertools.product(INITS, EXPANDS, FWDS):
        yield "class Op(Base):\n" + (init + expand + fwd or "    pass\n")


@pytest.mark.parametrize("code", list(classes()))
def test_the_number_and_the_names_are_one_reading(code):
    methods = class_body.methods(ast.parse(code).body[0])
    tree = cst.parse_module(code)
    shape = class_shape(tree.body[0], bridge_of(tree, code))
    count, names = input_count(methods), input_names(methods)
    if count is not None:  # where the number is known, the names the rewrite writes have it
        assert shape.inputs is not None and len(shape.inputs) == count, code
    if "in_avals" not in code:
        assert shape.inputs == names, code


@pytest.mark.parametrize(
    ("code", "count", "names", "pytrees"),
    [
        ("    def expand(self, x, y=1):\n        pass\n", 1, ["x"], set()),
        ("    def vjp_fwd(self, nzs_in, x, y):\n        pass\n", None, ["x", "y"], set()),
        ("    def vjp_fwd(self, x):\n        pass\n", None, ["x"], set()),
        ("    def __init__(self):\n        self.in_avals = [a, {}, (b,)]\n", 3, ["arg0", "arg1", "arg2"], {1, 2}),
        (
            "    def __init__(self):\n        self.in_avals = (a, b)\n    def expand(self, x, y):\n        pass\n",
            2,
            ["x", "y"],
            set(),
        ),
    ],
)
def test_each_form(code, count, names, pytrees):
    code = "class Op(Base):\n" + code
    tree = cst.parse_module(code)
    shape = class_shape(tree.body[0], bridge_of(tree, code))
    assert input_count(class_body.methods(ast.parse(code).body[0])) == count
    assert (shape.inputs, set(shape.pytree_inputs)) == (names, pytrees)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class A:\n    def vjp_fwd(self, nzs, x, y): ...\nclass B(A): ...\n", ["x", "y"]),
        (  # the nearest definition wins
            "class A:\n    def vjp_fwd(self, nzs, x, y): ...\n"
            "class B(A):\n    def vjp_fwd(self, nzs, z): ...\nclass C(B): ...\n",
            ["z"],
        ),
        ("class B(mod.A): ...\nclass A:\n    def vjp_fwd(self, nzs, x): ...\n", None),  # not a plain name
        ("class A(B): ...\nclass B(A): ...\n", None),  # a loop of names ends
    ],
)
def test_inputs_inherited_from_a_class_of_the_file(source, expected):
    tree = ast.parse(source)
    by_name = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    last = [node for node in tree.body if isinstance(node, ast.ClassDef)][-1]
    cls = by_name["B"] if "mod.A" in source else last
    assert inherited_inputs(cls, by_name) == expected
