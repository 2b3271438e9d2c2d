"""libcst's AddImportsVisitor run on the import statements alone (import_edits)
gives exactly what it gives on the whole module, and does run alone where it
can. (Removals: test_import_removal.)"""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from hijax_migrate.rules import import_edits
from hijax_migrate.rules.context import FileContext
from libcst.codemod.visitors import AddImportsVisitor

HIJAX = "jax.experimental.hijax"
BODY = "\n\nclass Op(HiPrim):\n    def vjp_fwd(self, x):\n        return x, None\n\n\nop = Op()\n"


def context_asking(adds=()) -> FileContext:
    context = FileContext("m.py", "m", None)
    for module, name in adds:
        context.add_import(module, name)
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


def both_ways(code: str, adds) -> tuple[str, str]:
    """(whole module, import statements alone) for the same requests."""
    tree = cst.parse_module(textwrap.dedent(code))
    context = context_asking(adds=adds).codemod_context()
    whole = AddImportsVisitor(context).transform_module(tree).code
    return whole, import_edits.add_imports(AddImportsVisitor, context, tree).code


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
    whole, alone = both_ways(code, adds)
    assert alone == whole
    assert spy.sizes[1:] == [ran_on]
