"""Walking only the nodes over the lines that name a word (``analysis.line_walk``)
finds what walking every node finds: fast against slow.

``word_lines`` against a line-by-line search; ``outside_bindings`` with the
text (filtered) against without it (every node), over every golden case, the
package's own sources, the data model's generator and texts drawn to put the
words where a filter could lose them (continued lines, decorators, f-strings,
letters NFKC makes ASCII of, a lone CR).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from pathlib import Path

import pytest
from hijax_migrate.analysis.ast_summary import class_statements
from hijax_migrate.analysis.line_walk import over_lines, word_lines
from hijax_migrate.analysis.namespace_after import outside_bindings
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import program_namespaces  # noqa: E402

WORDS = ("type", "setattr", "vjp_bwd")


def slow_word_lines(code: str, words) -> list[int]:
    """Each line searched alone (``str.split`` on LF only, as ``ast`` counts without a lone CR)."""
    found = []
    for number, line in enumerate(code.split("\n"), 1):
        named = any(re.search(rf"(?<![0-9A-Za-z_]){re.escape(w)}(?![0-9A-Za-z_])", line) for w in words)
        if named or not line.isascii():
            found.append(number)
    return found


@given(
    st.lists(
        st.sampled_from(
            [
                "type",
                "dtype",
                "type_",
                "x",
                " ",
                "\n",
                "é",
                "setattr",
                "(",
                "vjp_bwd2",
                "typetype",
                "0",
                "ty",
                "pe",
                ".",
            ]
        )
    )
)
def test_word_lines_are_the_lines_a_search_of_each_finds(parts):
    code = "".join(parts)
    assert word_lines(code, WORDS) == slow_word_lines(code, WORDS)


def test_a_lone_cr_asks_for_every_node():
    assert word_lines("x = 1\ry = type(x)\n", WORDS) is None
    tree = ast.parse("x = 1\n")
    assert list(over_lines(tree, None)) == list(ast.walk(tree))


def _same(code: str) -> None:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return
    classes = class_statements(tree)
    assert outside_bindings(tree, classes, code) == outside_bindings(tree, classes)


def _texts() -> list[Path]:
    golden = sorted((ROOT / "golden").glob("*.py"))
    return golden + sorted((ROOT / "codemods" / "hijax_migrate").rglob("*.py"))


@pytest.mark.parametrize("path", _texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_filtered_walk_finds_what_the_whole_walk_finds(path):
    _same(path.read_text(encoding="utf-8"))


def test_the_filtered_walk_over_the_data_models_programs():
    rng = random.Random(0)
    for n in range(150):
        for text in program_namespaces.draw_namespace(rng.choice, f"p{n}").files.values():
            _same(text)


PLACES = [
    "setattr(P,\n    'vjp_bwd', f)",
    "P.\\\n    vjp_bwd = f",
    "(P\n .vjp_bwd) = f",
    "def deco(cls):\n    setattr(cls, 'vjp_bwd', g)\n    return cls\n\n@deco\nclass R(P):\n    pass",
    "x = f'{setattr(P, \"vjp_bwd\", f)}'",
    "x = f'''\n{setattr(P, \"vjp_bwd\", f)}\n'''",
    "ｓｅｔａｔｔｒ(P, 'vjp_bwd', f)",
    "P.ｖｊｐ_ｂｗｄ = f",
    "Q = type('Q', (P,), {'vjp_bwd': f})",
    "del P.vjp_bwd",
    "class Q(P):\n    def g(self):\n        self.vjp_bwd = f",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PLACES), min_size=1, max_size=4), st.integers(0, 3))
def test_words_anywhere_on_a_statements_lines_are_found(places, pad):
    code = "class P:\n    pass\n\n" + "\n".join("\n" * pad + place for place in places) + "\n"
    _same(code)
    tree = ast.parse(code)
    assert outside_bindings(tree, class_statements(tree), code)  # each place binds one


# The newer-names search (``newer_uses``) walks the same lines: its imports and
# attributes, in the same order, with the filter and without it.
NEWER = [
    "from jax.experimental.hijax import (\n    HiPrim,\n    vjp_from_lin,\n)",
    "from jax.experimental import hijax as hjx\ny = hjx.\\\n    jvp_from_lin",
    "import jax.experimental.hijax as hjx\nz = (hjx\n     .MappingSpec)",
    "import jax.experimental.hijax as hjx\nw = f'{hjx.vjp_from_jvp}'",
    "import jax.experimental.hijax as hjx\nw = f'''\n{hjx.transpose_jvp(1)}\n'''",
    "import jax.experimental.hijax as hjx\nv = hjx.ｖjp_from_lin",
    "import jax.experimental.hijax as hjx\nif x:\n    v = hjx.vjp_from_lin",
    "import jax.experimental.hijax as hjx\nclass Q:\n    @hjx.linearize_from_jvp\n    def f(self):\n        pass",
]


def _same_over_every_node(code: str, calls) -> None:
    """Each of ``calls`` ((module, function name, arguments after the tree and text)) gives
    with its lines (``word_lines`` in its module) what it gives over every node (``None``)."""
    from unittest import mock

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return
    for module, name, *rest in calls:
        filtered = getattr(module, name)(tree, code, *rest)
        with mock.patch.object(module, "word_lines", lambda code, words: None):
            assert filtered == getattr(module, name)(tree, code, *rest), (name, code)


def _same_newer(code: str) -> None:
    from hijax_migrate.analysis import newer_uses

    _same_over_every_node(code, [(newer_uses, "newer_uses", target) for target in [(0, 8, 1), (0, 10, 0), (0, 11, 0)]])


@pytest.mark.parametrize("path", _texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_newer_names_search_finds_on_the_lines_what_it_finds_everywhere(path):
    _same_newer(path.read_text(encoding="utf-8"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NEWER), min_size=1, max_size=4), st.integers(0, 2))
def test_newer_names_anywhere_on_a_statements_lines_are_found(places, pad):
    code = "\n".join("\n" * pad + place for place in places) + "\n"
    _same_newer(code)
    # not vacuous: each place uses one, but the switch and, alone, the other letters (``respelt`` refuses those)
    if any("if x" not in place and place.isascii() for place in places):
        assert module_uses(code)


def module_uses(code: str) -> list:
    from hijax_migrate.analysis.newer_uses import newer_uses

    return newer_uses(ast.parse(code), code, (0, 10, 0))


# The module-wide rules' triage tests (HJX013's, HJX015's) walk the lines naming their words:
# the same verdict as over every node.
MODULE_WIDE = [
    "import jax.experimental.hijax as hjx\nt = (hjx\n     .MutableHiType)",
    "from jax.experimental.hijax import (\n    AvalQDD,\n)",
    "x = f'{hjx.AvalMutableQDD}'",
    "from jax.experimental.hijax import (\n    linearize_from_jvp as lfj,\n)\nOp.lin = (\n    lfj\n)",
    "Op.\\\n    lin = hijax.linearize_from_jvp",
    "y = hjx.ｔranspose_jvp",
    "lin, linearized = linearize_from_jvp",
    "x = 1",
]


def _same_module_tests(code: str) -> None:
    from hijax_migrate.rules import removed_helpers, removed_names

    _same_over_every_node(code, [(removed_helpers, "names_a_removed_helper"), (removed_names, "names_a_removed_type")])


@pytest.mark.parametrize("path", _texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_module_wide_tests_find_on_their_lines_what_they_find_everywhere(path):
    _same_module_tests(path.read_text(encoding="utf-8"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MODULE_WIDE), min_size=1, max_size=4), st.integers(0, 2))
def test_module_wide_words_anywhere_on_a_statements_lines_are_found(places, pad):
    _same_module_tests("\n".join("\n" * pad + place for place in places) + "\n")
