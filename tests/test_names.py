"""The name model (``analysis/names.py``, ``analysis/rename_reads.py``) answers
as libcst's scopes and positions do on every golden input (and jax's
hijax_test.py modules, where ``HIJAX_TEST_MODULES`` names a folder of them),
for both base renames: the import plan (where libcst reads names as Python
does: its scopes are the oracle here, never the tool's), the qualified names
of attributes, the lines of reads, attributes and imports, the visit order.
Where the two part, Python's semantics decide: ``test_rename_resolution``."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import parse_ast
from hijax_migrate.analysis.bindings import Decision, Read, hijax_from, plan_imports
from hijax_migrate.analysis.cst_blocks import small_statements
from hijax_migrate.analysis.names import NameModel, import_qualified
from hijax_migrate.analysis.nodes import findall, in_leave_order, is_store, parents_under
from hijax_migrate.analysis.qualified import Qualifier, model_of
from hijax_migrate.analysis.rename_reads import (
    attribute_names,
    import_lines,
    is_read,
    model_reads,
    paired_lines,
)
from hijax_migrate.analysis.summary import bridge_of
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedName, QualifiedNameSource, ScopeProvider

from golden import read_case

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.py"))
_EXTRA = os.environ.get("HIJAX_TEST_MODULES")
SOURCES = [read_case(path).source for path in GOLDEN] + (
    [path.read_text() for path in sorted(Path(_EXTRA).glob("*.py"))] if _EXTRA else []
)
RENAMES = [("VJPHiPrimitive", "HiPrim"), ("NewstyleHiPrimitive", "VJPHiPrimitive")]
FORMS = [
    "from jax.experimental.hijax import VJPHiPrimitive\nclass A(VJPHiPrimitive): pass\n",
    "x = VJPHiPrimitive\nfrom jax.experimental.hijax import VJPHiPrimitive\n",
    "from jax.experimental.hijax import VJPHiPrimitive\ndef f():\n    VJPHiPrimitive = 1\n    return VJPHiPrimitive\n",
    "from jax.experimental.hijax import VJPHiPrimitive, HiPrim\nclass A(VJPHiPrimitive, HiPrim): pass\n",
    "from jax.experimental.hijax import *\nclass A(VJPHiPrimitive): pass\n",
    "import jax.experimental.hijax as hjx\nclass A(hjx.VJPHiPrimitive): pass\ny = [hjx.VJPHiPrimitive for hjx in z]\n",
    "import jax.experimental.hijax\nclass A(jax.experimental.hijax.VJPHiPrimitive): pass\n",
    "from jax.experimental import hijax as h, hijax\nclass A(h.VJPHiPrimitive, hijax.VJPHiPrimitive): pass\n",
    "from jax.experimental.hijax import VJPHiPrimitive\nx: 'VJPHiPrimitive' = f'{VJPHiPrimitive}'\n",
    "try:\n    from jax.experimental.hijax import VJPHiPrimitive\nexcept ImportError:\n"
    "    from jax._src.hijax import VJPHiPrimitive\nB = (VJPHiPrimitive)\ndel VJPHiPrimitive\n",
]


def _module(code: str):
    """The tree, and the model as the rename makes it (none where ``ast`` cannot read the text)."""
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    try:
        return wrapper, NameModel.of(parse_ast(code))
    except SyntaxError:
        pytest.skip("ast cannot read it: libcst's scopes decide")


def _reads(module: cst.Module, old: str, parents) -> list[cst.Name]:
    return [name for name in findall(module, cst.Name, lambda n: n.value == old) if is_read(name, parents)]


class ScopeReads:
    """The import plan's questions answered by libcst's ScopeProvider (the oracle)."""

    def __init__(self, scopes, new: str, module: cst.Module):
        self.scopes, self.new, self.module = scopes, new, module

    def _read(self, access) -> Read:
        return Read(access.node, len(access.referents), self._shadowed(access.scope))

    def of_import(self, node: cst.ImportFrom, bound: str) -> list[Read]:
        scope = self.scopes[node]
        return [self._read(a) for s in scope.assignments[bound] if s.node is node for a in s.references]

    def import_shadowed(self, node: cst.ImportFrom) -> bool:
        return self._shadowed(self.scopes[node])

    def unbound(self, old: str) -> list[Read]:
        scopes = {*self.scopes.values()} - {None}
        return [self._read(a) for scope in scopes for a in scope.accesses[old] if not a.referents]

    def read_unbound(self) -> bool:
        return False  # libcst's scopes give a read before its module's import that import as referent

    def namespace_read(self) -> bool:
        """The module's namespace read by keys: ``globals()`` and the like, ``vars()`` or ``dir()``
        with no argument, ``sys.modules``, a frame's ``f_globals``, accessed anywhere."""
        readers = ("globals", "locals", "eval", "exec", "__import__")
        calls = {id(c.func): c for c in findall(self.module, cst.Call)}
        for scope in {*self.scopes.values()} - {None}:
            for name in (*readers, "vars", "dir"):
                for access in scope.accesses[name]:
                    call = calls.get(id(access.node))
                    if name in readers or call is None or not call.args:
                        return True
        attributes = {"modules", "import_module", "f_globals"}
        return any(attribute.attr.value in attributes for attribute in findall(self.module, cst.Attribute))

    def _shadowed(self, scope) -> bool:
        return any(not (isinstance(a.node, cst.ImportFrom) and hijax_from(a.node)) for a in scope[self.new])


def _plan_tuple(plan):
    return (
        {alias: decision for alias, decision in plan.aliases.items()},
        plan.uses,
        [(id(where), why) for where, why in plan.refused],
    )


# Where libcst's scopes part from Python's resolution (``test_rename_resolution`` runs such
# code): a read before its module's import has, to libcst, no referent, and the import is
# renamed, the read left unbound; a function's import of the old name, renamed, would make
# its read of the new one local; jax's ``import *`` rebinds the old name over an earlier
# binding, or has not run yet at a read, or is what a class body's read finds where the
# body's own binding did not run (libcst takes that binding as the referent). There the
# plan keeps the old name, or refuses.
_PYTHONS = {
    FORMS[1],
    *(
        read_case(path).source
        for path in GOLDEN
        if path.stem
        in (
            "bases_import_in_a_function_reading_the_new_name_aliased",
            "bases_read_before_the_import_aliased",
            "bases_read_before_the_star_import_warns",
            "bases_star_import_over_an_earlier_binding_warns",
            "bases_star_import_read_in_a_class_body_after_a_handler_warns",
        )
    ),
}


@pytest.mark.parametrize("code", SOURCES + FORMS)
@pytest.mark.parametrize("rename", RENAMES)
def test_the_import_plan_is_libcsts(code, rename):
    old, new = rename
    wrapper, model = _module(code)
    module, parents = wrapper.module, parents_under(wrapper.module)
    loads = [name for name in _reads(module, old, parents) if not is_store(name, parents)]
    reads = model_reads(model, old, new, loads, module)
    scopes = ScopeReads(wrapper.resolve(ScopeProvider), new, wrapper.module)
    for public in (frozenset(), {old}):
        mine, theirs = (plan_imports(module, found, old, new, set(), public) for found in (reads, scopes))
        if code in _PYTHONS and _plan_tuple(mine) != _plan_tuple(theirs):
            assert Decision.RENAME not in mine.aliases.values() or mine.refused, code
            assert mine.uses <= theirs.uses
            continue
        assert _plan_tuple(mine) == _plan_tuple(theirs)


@pytest.mark.parametrize("code", SOURCES + FORMS)
def test_attribute_names_are_libcsts_where_the_model_answers(code):
    wrapper, model = _module(code)
    scopes, parents = wrapper.resolve(ScopeProvider), parents_under(wrapper.module)
    for node in findall(wrapper.module, cst.Attribute):
        mine = attribute_names(model, node, parents)
        if mine is not None:
            scope = scopes.get(node)  # what QualifiedNameProvider answers, node by node
            theirs = {q.name for q in scope.get_qualified_names_for(node)} if scope else set()
            assert mine == theirs, cst.Module([]).code_for_node(node)


@pytest.mark.parametrize("code", SOURCES + FORMS)
@pytest.mark.parametrize("rename", RENAMES)
def test_paired_lines_are_libcsts_positions(code, rename):
    old, new = rename
    wrapper, model = _module(code)
    module, parents = wrapper.module, parents_under(wrapper.module)
    names = [name for name in _reads(module, old, parents) if not is_store(name, parents)]
    positions = wrapper.resolve(PositionProvider)
    attributes = findall(module, cst.Attribute, lambda n: n.attr.value == old)
    lines = {
        **paired_lines(names, model.reads_in_order(old)),
        **paired_lines(attributes, model.attributes_in_order(old)),
        **import_lines(small_statements(module, cst.ImportFrom), model.import_froms),
    }
    for node, line in lines.items():
        if not getattr(node, "lpar", None):  # the rename asks libcst for those
            assert line == positions[node].start.line, cst.Module([]).code_for_node(node)


@pytest.mark.parametrize("code", SOURCES + FORMS)
def test_leave_order_is_the_order_of_positions(code):
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    nodes = {*findall(wrapper.module, (cst.Name, cst.Attribute)), *small_statements(wrapper.module, cst.ImportFrom)}

    def left(node):
        where = positions[node]
        return where.end.line, where.end.column, -where.start.line, -where.start.column

    found = in_leave_order(nodes, parents_under(wrapper.module))
    assert [left(node) for node in found] == sorted(left(node) for node in nodes)


def test_python_scopes():
    model = NameModel.of(
        ast.parse(
            "import a.b\nfrom . import c as d\nclass K:\n    x = 1\n    def f(self):\n        global g\n"
            "        return x\n[y for y in z]\nlambda q: q\n"
        )
    )
    assert {name for name, found in model.bindings.items() if model.imported_only(name)} == {"a.b", "a", "d"}
    assert model.imported_only("x") is None and model.imported_only("y") is None
    assert "g" in model.declared
    kinds = {name: [scope.kind for scope, _ in reads] for name, reads in model.reads.items()}
    assert kinds == {"x": ["function"], "z": ["module"], "y": ["comprehension"], "q": ["lambda"]}


def test_import_qualified_follows_libcst():
    stmt = ast.parse("from a.b import c as d, e").body[0]
    assert import_qualified(stmt, "d.x") == {"a.b.c.x"} and import_qualified(stmt, "e") == {"a.b.e"}
    assert import_qualified(ast.parse("import a.b.c").body[0], "a.b.x") == {"a.b.x"}
    assert import_qualified(ast.parse("from .. import m").body[0], "m.k") == {"..m.k"}


QUALIFIED_FORMS = [
    "import jax.experimental.hijax\nx = jax.experimental.hijax.VmapOf\ny = jax.experimental.hijax\n",
    "x = hjx.VmapOf\nimport jax.experimental.hijax as hjx\ny = hjx.VmapOf\n",
    "from jax.experimental.hijax import VmapOf as V, HiPrim\nclass A(V, HiPrim.x().y[0]):\n    z = len(V)\n",
    "from typing import NewType\nimport jax.experimental.hijax as hjx\nT = NewType(hjx.A, int)\nf(hjx.A, k=hjx.B)\n",
    "import jax.experimental.hijax as hjx\nmatch v:\n    case hjx.A(hjx=1):\n        pass\n",
    "import jax.experimental.hijax as hjx\nglobal hjx\nfrom . import m\nm.x; (lambda hjx: hjx.A)(1)\n",
    "import jax.experimental.hijax as hjx\nclass K:\n    hjx = 1\n    a = hjx.A\n    def f(self):\n"
    "        return hjx.A\n",
    "import jax.experimental.hijax as hjx\nclass K:\n    hjx = hjx.A\n",
    "def f(hjx):\n    return hjx.A\nimport jax.experimental.hijax as hjx\n",
]
# Where Python reads a name otherwise than libcst's scopes, the qualifier answers as Python
# does: (code, node, where it starts) -> its answer. A read before the import that binds it is a NameError;
# a class body's read before the class binds the name reads the module's.
_QUALIFIED_PYTHONS = {
    (QUALIFIED_FORMS[1], "hjx.VmapOf", (1, 4)): set(),
    (QUALIFIED_FORMS[-2], "hjx.A", (3, 10)): {QualifiedName("jax.experimental.hijax.A", QualifiedNameSource.IMPORT)},
    (QUALIFIED_FORMS[-2], "hjx", (3, 10)): {QualifiedName("jax.experimental.hijax", QualifiedNameSource.IMPORT)},
}


@pytest.mark.parametrize("code", SOURCES + FORMS + QUALIFIED_FORMS)
def test_qualified_names_are_libcsts(code):
    """``analysis.qualified``: for every name, attribute, call and subscript, libcst's
    scopes' answer (what ``QualifiedNameProvider`` gives), whether the model is sure or not,
    and whether the visit gave the node's ancestors or not (the qualifier then finds them)."""
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    scopes, parents = wrapper.resolve(ScopeProvider), parents_under(wrapper.module)
    bridge, positions = bridge_of(wrapper.module, code), wrapper.resolve(PositionProvider)
    qualifier = Qualifier(model_of(code), wrapper, lambda: bridge)  # as the rules make it
    for node in findall(wrapper.module, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        chain, above = [], node
        while above in parents:
            above = parents[above]
            chain.append(above)
        scope = scopes.get(node)
        theirs = set(scope.get_qualified_names_for(node)) if scope else set()
        text = cst.Module([]).code_for_node(node)
        start = positions[node].start
        theirs = _QUALIFIED_PYTHONS.get((code, text, (start.line, start.column)), theirs)
        assert qualifier.names(node, chain) == theirs, text
        assert qualifier.names(node, None) == theirs, text  # a node not visited
        if not any(q.name.rpartition(".")[2] in {"VmapOf", "A"} for q in theirs):
            continue
        assert qualifier.may_end_in(node, {"VmapOf", "A"}), cst.Module([]).code_for_node(node)


def test_imported_names_are_sure():
    code = QUALIFIED_FORMS[0] + "def f(y):\n    return jax.experimental.hijax.HiPrim(len(y))\n"
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    qualifier = Qualifier(model_of(code), wrapper)
    attributes = findall(wrapper.module, cst.Attribute, lambda n: n.attr.value in ("VmapOf", "HiPrim"))
    assert all(qualifier.sure(node) for node in attributes) and qualifier.unsure == 0
