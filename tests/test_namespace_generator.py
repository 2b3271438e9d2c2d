"""The data model's generator (benchmarks/program_namespaces.py) and the
table of issue 40 over it (benchmarks/namespaces.py).

The generator is checked on its own: it draws every form it counts and every
input issue 40 names, a seed draws the same programs, and each program's
stated gradient is what jax gives for it as written for jax 0.10 (and 0.12
with ``HIJAX_PY312``), and as found where it is already correct there. Then
the tool over a seeded sample that holds every form, under jax 0.10.2: no
program wrong and none silent (0.12 skips without ``HIJAX_PY312``). Each jax
check is one process over its whole sample, as refusals.py runs it.
"""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import namespaces
import program_namespaces
import refusals
from jax_batch import HAS_JAX_HERE, JAX_012

needs_jax = pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed in this interpreter")
needs_012 = pytest.mark.skipif(JAX_012 is None, reason="set HIJAX_PY312 to a Python 3.12 with jax 0.12 installed")

# What issue 40 names, as the generator writes it (as found): each must be drawn.
ISSUE_INPUTS = [
    'cls.__dict__.get("vjp_bwd")',
    "getattr(Lin, RULE_NAME)",
    "from .names import RULE_NAME",
    "functools.partialmethod(_bwd, scale=2.0)",
    "_Base if _FLAG else _Other",
    "class _NS:\n    from jax.experimental.hijax import VJPHiPrimitive",
    '_resolve("HiPrim", "VJPHiPrimitive")',
    "finally:\n        return (",
    "for _ in range(1):\n            x0_acc.accum(",
    "jax.tree.map(lambda q, w: q.accum(w)",
    "if g is not None else (",
    "if jax.__version_info__ >= (0, 9):",
    "operator.attrgetter(RULE_NAME)",
    "vars(cls)[",
]


def cover(seed: int = 0, family: list[str] | None = None) -> dict[str, program_namespaces.Namespace]:
    """Programs drawn from one seeded stream, each kept if it holds a form no earlier one held: every
    form (``family``: the second family's, ``program_namespaces.LOOKED_UP``)."""
    forms = set(program_namespaces.FORMS if family is None else program_namespaces.LOOKED_UP_FORMS)
    trees, seen, rng, drawn = {}, set(), random.Random(seed), 0
    while seen != forms:
        pkg, drawn = f"c{drawn:03d}", drawn + 1
        tree = program_namespaces.draw_namespace(rng.choice, pkg, family)
        if set(tree.forms) - seen:
            trees[pkg], seen = tree, seen | set(tree.forms)
    return trees


def drawn(seeds: range) -> list[program_namespaces.Namespace]:
    return [program_namespaces.draw_namespace(random.Random(seed).choice, "pkg") for seed in seeds]


def test_the_generator_draws_every_form_and_no_other():
    seen = set().union(*(tree.forms for tree in drawn(range(1500))))
    assert seen == set(program_namespaces.FORMS)


def test_the_generator_draws_every_input_the_issue_names():
    texts = "\n".join(text for tree in drawn(range(1500)) for text in tree.files.values())
    assert [wanted for wanted in ISSUE_INPUTS if wanted not in texts] == []


def test_a_seed_draws_the_same_programs():
    first, again, other = drawn(range(7, 27)), drawn(range(7, 27)), drawn(range(27, 47))
    assert [(t.files, t.forms, t.references) for t in first] == [(t.files, t.forms, t.references) for t in again]
    assert [t.files for t in first] != [t.files for t in other]


def test_every_program_parses_as_found_and_as_written_for_each_target():
    for tree in drawn(range(300)):
        if tree.python > f"{sys.version_info.major}.{sys.version_info.minor}":
            continue  # PEP 695 under an older parser
        for files in (tree.files, *tree.references.values()):
            for rel, text in files.items():
                ast.parse(text, rel)
        assert set(tree.fixed) <= set(tree.files) and set(tree.forms) <= set(program_namespaces.FORMS)


def as_found(folder: Path, tree, target: str, strategy: str) -> None:
    del target, strategy
    refusals.write_tree(folder, tree)


def verdicts_of(trees, target: str, strategy: str, work: Path, run, silent_if=None) -> dict[str, tuple]:
    return refusals.evaluate(trees, target, strategy, work, run, silent_if)


def not_correct(verdicts: dict[str, tuple], trees) -> list[str]:
    return [f"{pkg} {trees[pkg].forms}: {v}" for pkg, v in verdicts.items() if v[0] not in ("correct", "n/a")]


@needs_jax
def test_stated_gradients_hold_under_jax_010(tmp_path):
    """As written for 0.10, and as found where the program is already correct there (accumulator rules, a
    class switching on the version): jax gives each program's stated gradient and value."""
    trees = cover()
    assert not_correct(verdicts_of(trees, "0.10", "ref", tmp_path, namespaces.by_hand), trees) == []
    ready = {pkg: t for pkg, t in trees.items() if {"kind:accum", "kind:switch"} & set(t.forms)}
    assert ready and not_correct(verdicts_of(ready, "0.10", "found", tmp_path, as_found), ready) == []


@needs_012
def test_stated_gradients_hold_under_jax_012(tmp_path):
    trees = cover()
    assert not_correct(verdicts_of(trees, "0.12", "ref", tmp_path, namespaces.by_hand), trees) == []


def wrong_or_silent(target: str, strategy: str, work: Path) -> list[str]:
    trees = cover()
    verdicts = verdicts_of(trees, target, strategy, work, refusals.run_one, refusals.check_passes)
    return [f"{pkg} {trees[pkg].forms}: {v}" for pkg, v in verdicts.items() if v[0] in ("wrong", "silent")]


@needs_jax
@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_the_tool_is_never_wrong_nor_silent_under_jax_010(tmp_path, strategy):
    assert wrong_or_silent("0.10", strategy, tmp_path) == []


@needs_012
@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_the_tool_is_never_wrong_nor_silent_under_jax_012(tmp_path, strategy):
    assert wrong_or_silent("0.12", strategy, tmp_path) == []


# The second family: a rule in each instance's own namespace (B5), answered by a __getattribute__ (D),
# or on a mixin a primitive inherits (D'). No rule follows these: refused, never wrong nor silent.
LOOKED_UP = program_namespaces.LOOKED_UP


def test_the_second_family_draws_every_form_of_its_own_and_no_other():
    trees = cover(0, LOOKED_UP)
    assert set().union(*(tree.forms for tree in trees.values())) == set(program_namespaces.LOOKED_UP_FORMS)
    assert all(set(tree.forms) & set(LOOKED_UP) for tree in trees.values())


@pytest.mark.parametrize(
    "target",
    [pytest.param("0.10", marks=needs_jax), pytest.param("0.12", marks=needs_012)],
)
def test_the_second_family_is_right_as_written_and_never_wrong_nor_silent(tmp_path, target):
    trees = cover(0, LOOKED_UP)
    assert not_correct(verdicts_of(trees, target, "ref", tmp_path / "ref", namespaces.by_hand), trees) == []
    verdicts = verdicts_of(trees, target, "auto", tmp_path / "tool", refusals.run_one, refusals.check_passes)
    assert [f"{pkg}: {v}" for pkg, v in verdicts.items() if v[0] in ("wrong", "silent")] == []
