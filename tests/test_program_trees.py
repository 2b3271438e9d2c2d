"""The refusal benchmark's program trees (benchmarks/program_trees.py), drawn
by hypothesis: every choice the generator makes is a ``draw``, so these
tests can produce any tree the benchmark can. Without jax: each tree goes
through the tool in this process, and what must hold whatever the tool
decides is checked (it runs, its output parses, a second run changes
nothing, what it refused and the look-alikes stay byte for byte). How often
it refuses is the benchmark's to say, not these tests'."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import program_reference
import program_trees
import refusals

# Tens of runs of the tool, a few seconds; no shrinking (minutes on a tree): the failing draws are printed.
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def drawn(data) -> program_trees.Tree:
    return program_trees.draw_tree(lambda options: data.draw(st.sampled_from(options)), "pkg")


@EXAMPLES
@given(data=st.data(), target=st.sampled_from(["0.10", "0.12"]), strategy=st.sampled_from(["auto", "accum"]))
def test_a_drawn_tree_comes_out_safe(tmp_path_factory, data, target, strategy):
    tree = drawn(data)
    folder = tmp_path_factory.mktemp("tree")
    report = refusals.migrate_tree(folder, tree, target, strategy)
    # exit 1 exactly while an error finding is left (as ruff's --fix), else 0; no file fails
    assert report["exit"] == (1 if refusals.error_findings(report) else 0) and not report["errors"], report["errors"]
    after = snapshot(folder)
    for rel, text in after.items():
        if rel.endswith(".py"):
            ast.parse(text, rel)
    assert refusals.left_alone(folder, tree, report) is None  # a monorepo's other project included
    refusals.migrate(folder, target, strategy)
    assert snapshot(folder) == after, "a second run changed the tree"


def test_the_other_project_of_a_monorepo_is_left_alone(tmp_path):
    seeds = (
        seed for seed in range(1000) if "monorepo" in program_trees.draw_tree(random.Random(seed).choice, "p").forms
    )
    for seed in [next(seeds), next(seeds)]:
        tree = program_trees.draw_tree(random.Random(seed).choice, "pkg")
        report = refusals.migrate_tree(tmp_path / str(seed), tree, "0.10", "auto")
        assert refusals.left_alone(tmp_path / str(seed), tree, report) is None


def test_the_generator_draws_every_form():
    """Every form the benchmark counts is drawn (over seeds, as the benchmark draws), and no other."""
    seen = set()
    for seed in range(1500):
        seen |= set(program_trees.draw_tree(random.Random(seed).choice, "pkg").forms)
    assert seen == set(program_trees.FORMS)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_every_drawn_tree_is_python_and_states_its_result(data):
    """Each file parses, and so does its hand migration (``refusals.py --reference`` runs it under jax); ``main``
    states a gradient per input and the value; the fixed files are in the tree."""
    tree = drawn(data)
    for version in (tree, program_reference.migrated(tree, "0.10"), program_reference.migrated(tree, "0.12")):
        for rel, text in version.files.items():
            if rel.endswith(".py"):
                ast.parse(text, rel)
    main = ast.parse(tree.files[f"{tree.root + '/' if tree.root else ''}pkg/main.py"])
    names = {t.id for node in main.body if isinstance(node, ast.Assign) for t in node.targets}
    assert {"ARGS", "ARGNUMS", "EXPECTED", "VALUE", "BATCHED"} <= names
    assert set(tree.fixed) <= set(tree.files)
    assert set(tree.forms) <= set(program_trees.FORMS)


def test_a_refused_class_call_may_have_its_base_renamed_and_nothing_else(tmp_path):
    """``type("Lin", (VJPHiPrimitive,), {...})`` is a class statement: its base may be renamed
    (HJX003), as a class statement's may; any other change of it is a change of what was refused."""
    made = 'Lin = type("Lin", (VJPHiPrimitive,), {"vjp_bwd": _bwd})\n'
    tree = program_trees.Tree({"pkg/prims.py": f"from jax.experimental.hijax import VJPHiPrimitive\n\n{made}"})
    report = {"warnings": [{"severity": "error", "file": "pkg/prims.py", "line": 3}], "errors": []}
    for written, fine in [
        (made, True),
        (made.replace("VJPHiPrimitive", "HiPrim"), True),
        (made.replace('"vjp_bwd"', '"vjp_bwd_retval"'), False),
        (made.replace("VJPHiPrimitive", "HiPrim").replace("_bwd}", "_other}"), False),
    ]:
        (tmp_path / "pkg").mkdir(exist_ok=True)
        (tmp_path / "pkg" / "prims.py").write_text(f"from jax.experimental.hijax import HiPrim\n\n{written}")
        assert (refusals.left_alone(tmp_path, tree, report) is None) == fine, written
