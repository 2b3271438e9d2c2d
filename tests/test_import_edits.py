"""The import visitors run on the import statements alone (import_edits)
give exactly what they give on the whole module, and do run alone where
they can."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from hijax_migrate.rules import import_edits
from hijax_migrate.rules.context import FileContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

HIJAX = "jax.experimental.hijax"
BODY = "\n\nclass Op(HiPrim):\n    def vjp_fwd(self, x):\n        return x, None\n\n\nop = Op()\n"


def context_asking(adds=(), removes=()) -> FileContext:
    context = FileContext("m.py", "m", None)
    for module, name in adds:
        context.add_import(module, name)
    for module, name in removes:
        context.remove_import(module, name)
    return context


class Spy:
    """The sizes (top-level statements) of the modules a visitor was run on."""

    def __init__(self, monkeypatch, visitor_type):
        self.sizes = []
        transform = visitor_type.transform_module

        def spied(visitor, tree):
            self.sizes.append(len(tree.body))
            return transform(visitor, tree)

        monkeypatch.setattr(visitor_type, "transform_module", spied)


def both_ways(code: str, adds=(), removes=()) -> tuple[str, str]:
    """(whole module, import statements alone) for the same requests."""
    tree = cst.parse_module(textwrap.dedent(code))
    if adds:
        context = context_asking(adds=adds).codemod_context()
        whole = AddImportsVisitor(context).transform_module(tree).code
        return whole, import_edits.add_imports(AddImportsVisitor, context, tree).code
    context = context_asking(removes=removes).codemod_context()
    requests = context.scratch[RemoveImportsVisitor.CONTEXT_KEY]
    whole = RemoveImportsVisitor(context).transform_module(tree).code
    return whole, import_edits.remove_imports(RemoveImportsVisitor, context, tree, requests).code


# each module, and the statements the visitor runs on: the top imports and a stand-in
# for the statement after them (the whole module where nothing follows them)
ADDS = {
    "docstring, imports, class": (f'"""Doc."""\nimport jax\nfrom {HIJAX} import HiPrim{BODY}', 4),
    "no blank line before the class": (f"from {HIJAX} import HiPrim\nclass Op(HiPrim):\n    pass\nop = 1\n", 2),
    "a comment before the class": ("import jax\n# the op\nclass Op:\n    pass\n", 2),
    "the name joins an import of its module": (f"from {HIJAX} import HiPrim, Zero{BODY}", 2),
    "future import first": (f"from __future__ import annotations\nimport jax{BODY}", 3),
    "code before the imports": (f"x = 1\nfrom {HIJAX} import HiPrim{BODY}", 3),
    "no imports": ("class Op:\n    pass\n", 1),
    "only imports": (f"import jax\nfrom {HIJAX} import HiPrim\n", 2),
    "a class first": ("class Op:\n    pass\nimport jax\n", 1),
    "strict flag": (f"__strict__ = True\nimport os{BODY}", 3),
    "import inside a block later": (
        f"import os\ntry:\n    from {HIJAX} import vjp_from_jvp\nexcept ImportError:\n    pass\nx = 1\n",
        2,
    ),
}


@pytest.mark.parametrize("name", list(ADDS))
@pytest.mark.parametrize(
    "adds",
    [[(HIJAX, "vjp_from_jvp")], [(HIJAX, "HiPrim"), (HIJAX, "vjp_from_lin")], [("jax", None)]],
    ids=["one", "two", "module"],
)
def test_adding_at_the_top_alone_is_adding_to_the_module(name, adds, monkeypatch):
    code, ran_on = ADDS[name]
    spy = Spy(monkeypatch, AddImportsVisitor)
    whole, alone = both_ways(code, adds=adds)
    assert alone == whole
    assert spy.sizes[1:] == [ran_on]


REMOVES = {
    "unused": (f"from {HIJAX} import HiPrim, transpose_jvp{BODY}", True),
    "in a comment and a plain string only": (
        f"from {HIJAX} import (  # helpers\n    transpose_jvp,\n    HiPrim,\n)\n"
        "# transpose_jvp is gone\nx = f('transpose_jvp')\ny = obj.transpose_jvp\n",
        True,
    ),
    "alone on its line": (f"import os\nfrom {HIJAX} import transpose_jvp\n\nx = 1\n", True),
    "on a line with other code": (f"from {HIJAX} import transpose_jvp; x = 1\n", True),
    "twice": (f"from {HIJAX} import transpose_jvp\nfrom {HIJAX} import transpose_jvp\n", True),
    "used in a function": (f"from {HIJAX} import transpose_jvp\ndef f():\n    return transpose_jvp\n", False),
    "exported": (f"from {HIJAX} import transpose_jvp\n__all__ = ['transpose_jvp']\n", False),
    "in a string annotation": (f"from {HIJAX} import transpose_jvp\nx: 'transpose_jvp' = 1\n", False),
    "in an argument's string annotation": (
        f"from {HIJAX} import transpose_jvp\ndef f(a: 'list[transpose_jvp]'): pass\n",
        False,
    ),
    "in a TypeVar bound": (
        f"import typing\nfrom {HIJAX} import transpose_jvp\nT = typing.TypeVar('T', bound='transpose_jvp')\n",
        False,
    ),
    "in an f-string": (f"from {HIJAX} import transpose_jvp\nx = f'{{transpose_jvp}}'\n", False),
    "declared global": (f"from {HIJAX} import transpose_jvp\ndef f():\n    global transpose_jvp\n", False),
    "imported again in a function": (
        f"from {HIJAX} import transpose_jvp\ndef f():\n    from {HIJAX} import transpose_jvp\n",
        False,
    ),
    "imported in a try block": (f"try:\n    from {HIJAX} import transpose_jvp\nexcept ImportError:\n    pass\n", False),
    "under another name": (f"from {HIJAX} import transpose_jvp as tj\n", True),
}


@pytest.mark.parametrize("name", list(REMOVES))
def test_removing_from_the_import_lines_alone_is_removing_from_the_module(name, monkeypatch):
    code, alone_possible = REMOVES[name]
    spy = Spy(monkeypatch, RemoveImportsVisitor)
    whole, alone = both_ways(code, removes=[(HIJAX, "transpose_jvp")])
    assert alone == whole
    later = spy.sizes[1:]
    if alone_possible:  # each line naming it, alone
        assert later and set(later) == {1}
    else:
        assert later == [len(cst.parse_module(code).body)]


@pytest.mark.parametrize(
    "code, used",
    [
        ("x = transpose_jvp", {"transpose_jvp"}),
        ("match v:\n    case transpose_jvp():\n        pass", {"transpose_jvp"}),
        ("def f() -> 'transpose_jvp': pass", {"transpose_jvp"}),
        ("from typing import cast as c\nc('transpose_jvp', 1)", {"transpose_jvp"}),
        ("__all__.extend(['transpose_jvp'])", {"transpose_jvp"}),
        ("print('transpose_jvp')", set()),
        ("def transpose_jvp(transpose_jvp=1): pass", set()),
        ("obj.transpose_jvp(k=transpose_jvp_other)", set()),
        ("def f(:", None),
    ],
)
def test_maybe_used_is_a_superset_of_uses(code, used):
    assert import_edits.maybe_used(code, {"transpose_jvp"}) == used
