"""The engine's fast paths give the slow paths' result: generated modules
migrated as the tool runs them (triaged, rules focused on the classes and
statements they edit, qualified names from the name model, lines from ``ast``,
the import visitor on the import statements alone, imports removed where the name
model finds them unread) and with each of those off (every rule, every node
visited, every qualified name from libcst's scopes, libcst's positions and
scopes, libcst's visitors on the whole module) give the same
code, changes and findings, or the same error."""

from __future__ import annotations

import contextlib
from unittest import mock

from hijax_migrate.analysis.deflines import DefLines
from hijax_migrate.analysis.primitives import PrimitiveMap
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules import context as rule_context
from hijax_migrate.rules import import_edits, import_removal
from hijax_migrate.rules.context import Options, RuleTransformer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@contextlib.contextmanager
def slow_paths():
    with contextlib.ExitStack() as stack:
        for target, name, slow in [
            # the visitors on the whole module; the file's layout of its import lists kept as both ways keep it
            (import_edits, "add_imports", lambda visitor, context, tree: _laid(tree, visitor(context))),
            (import_removal, "removed", _libcst_removed),  # libcst's scopes decide which imports are unused
            (rule_context, "model_of", lambda code: None),  # libcst's scopes: every qualified name
            (RuleTransformer, "_skips", lambda self, node: False),  # no focus: every node visited
            (DefLines, "line", lambda self, node: None),  # libcst's positions
            (PrimitiveMap, "holding", lambda self, names: None),  # any statement may hold a call
            (PrimitiveMap, "naming", lambda self, word: None),  # any statement may name the old base
        ]:
            stack.enter_context(mock.patch.object(target, name, slow))
        yield


def _laid(tree, visitor):
    return import_edits.kept_layout(tree, visitor.transform_module(tree))


def _libcst_removed(tree, requests):
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    return RemoveImportsVisitor(CodemodContext(), requests).transform_module(tree)


def outcome(code: str, options: Options, triaged: bool):
    try:
        result = migrate_source(code, "m.py", options, triaged=triaged)
    except Exception as error:  # noqa: BLE001 (both ways must fail alike)
        return f"{type(error).__name__}: {error}"
    return result.code, result.report.changes, result.report.findings


def both_ways(code: str, options: Options):
    fast = outcome(code, options, triaged=True)
    with slow_paths():
        return fast, outcome(code, options, triaged=False)


PRIMITIVE = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd(self, res, g):
        return (g,)
"""
# A renamed rule's calls, spelt every way, where the focus may pass them over.
_CALL = st.sampled_from(
    [
        "op.vjp_bwd(r, g)",
        "Op.vjp_bwd(op, r, g)",
        "Op .vjp_bwd(op, r, g)",
        "Op.\\\n    vjp_bwd(op, r, g)",
        "(Op\n    .vjp_bwd)(op, r, g)",
        "(Op.  # c\n    vjp_bwd)(op, r, g)",
        "super(Op, op).vjp_bwd(r, g)",
        "Op.vjp_fwd(op, None, x)",
    ]
)
_PLACES = {
    "module": "y = {}",
    "joined": "z = 1; y = {}",
    "continued": "z = 1; \\\ny = {}",
    "function": "def use(op, r, g):\n    return {}",
    "decorator": "@(lambda f: {})\ndef h(): pass",
    "default": "def k(v=lambda: {}): pass",
    "other class": "class Other:\n    def m(self, op, r, g):\n        return {}",
    "subclass": "class Sub(Op):\n    def vjp_bwd(self, res, g):\n        return super().vjp_bwd(res, g)\n\n"
    "    def m(self, op, r, g):\n        return {}",
    "block": "if c:\n    try:\n        y = {}\n    except E:\n        pass",
    "string": "s = '''{}'''",
}
_PLACED = st.builds(lambda call, place: _PLACES[place].format(call), _CALL, st.sampled_from(sorted(_PLACES)))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    placed=st.lists(_PLACED, min_size=1, max_size=3),
    target=st.sampled_from([(0, 10, 0), (0, 12, 0)]),
    strategy=st.sampled_from(["auto", "rename", "accum"]),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_calls_of_a_renamed_rule_anywhere(placed, target, strategy, newline):
    code = (PRIMITIVE + "\n\n" + "\n\n\n".join(placed) + "\n").replace("\n", newline)
    fast, slow = both_ways(code, Options(target=target, strategy=strategy))
    assert fast == slow


_HIJAX = st.sampled_from(["jax.experimental.hijax", "jax._src.hijax"])
_NAME = st.sampled_from(
    [
        "VJPHiPrimitive",
        "transpose_jvp",
        "linearize_from_jvp",
        "apply_derived_linearization",
        "vjp_fwd_from_jvp",
        "AvalQDD",
        "HiPrim",
        "vjp_from_jvp",
        "jvp_from_lin",
        "VmapOf",
    ]
)
_IMPORT = st.one_of(
    st.builds("from {} import {}{}".format, _HIJAX, _NAME, st.sampled_from(["", "", " as Base", " as tj"])),
    st.builds("from {} import (\n    {},  # note\n    {},\n)".format, _HIJAX, _NAME, _NAME),
    st.builds("import {} as hjx".format, _HIJAX),
    st.builds("try:\n    from {0} import {1}\nexcept ImportError:\n    {1} = None".format, _HIJAX, _NAME),
    st.builds("if TYPE_CHECKING:\n    from {} import {}".format, _HIJAX, _NAME),
    st.builds("import os; from {} import {}".format, _HIJAX, _NAME),
    st.just("from typing import TYPE_CHECKING, List, cast"),
)
_CLASS = st.builds(
    "class Op({}):\n{}".format,
    st.sampled_from(["VJPHiPrimitive", "Base", "hjx.VJPHiPrimitive", "tj"]),
    st.sampled_from(
        [
            "    def vjp_bwd(self, res, g):\n        return (g,)",
            "    lin = linearize_from_jvp\n    linearized = apply_derived_linearization\n"
            "    vjp_fwd = vjp_fwd_from_jvp\n    vjp_bwd_retval = transpose_jvp",
            "    vjp_fwd = vjp_fwd_from_jvp\n    vjp_bwd_retval = transpose_jvp",
            "    x = VmapOf\n\n    def batch_dim_rule(self, a, d):\n        return d",
        ]
    ),
)
_USE = st.builds(
    lambda name, form: form.format(name),
    _NAME,
    st.sampled_from(
        [
            "x = {}",
            "a: '{}' = 1",
            "A = List['{}']",
            "c = cast('{}', 1)",
            "__all__ = ['{}']",
            "print('{}')",
            "z = obj.{}",
            "match v:\n    case C({}=1):\n        pass",
            "del {}",
            "isinstance(o, {})",
        ]
    ),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    imports=st.lists(_IMPORT, min_size=1, max_size=4),
    rest=st.lists(st.one_of(_CLASS, _CLASS, _USE), min_size=1, max_size=3),
    docstring=st.sampled_from(["", '"""Doc."""\n', "from __future__ import annotations\n"]),
    target=st.sampled_from([(0, 11, 1), (0, 11, 2), (0, 12, 0)]),
)
def test_imports_a_rule_edits(imports, rest, docstring, target):
    code = docstring + "\n".join(imports) + "\n\n\n" + "\n\n\n".join(rest) + "\n"
    fast, slow = both_ways(code, Options(target=target))
    assert fast == slow
