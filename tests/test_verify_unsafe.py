"""``--unsafe-fixes --verify CMD`` under real jax 0.10: each family's unsafe fix
kept only where CMD shows nothing broken with it (``verify.keep``).

The project: ``Scale``'s value rule bound by ``setattr`` (jax 0.10 calls it as
an accumulator rule: its gradient test fails), whose unsafe fix (the name
renamed ``vjp_bwd_retval``) is right; ``Twice``'s accumulator rule bound the
same way, right as written, whose unsafe fix makes jax call it as a value
rule: its test breaks, so the fix is dropped; and, in another project, a
value rule whose fix is wrong (the gradient it returns is not the test's):
its test fails with the fix and without it, so no test shows it right and it
is dropped too. Nothing unsafe is written without ``--in-place``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from verify_helpers import project, tool, tree_bytes

pytestmark = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax 0.10 in this environment")

PRIMITIVE = """import jax
from jax.experimental.hijax import VJPHiPrimitive


class {name}(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, x):
        return {k} * x

    def vjp_fwd(self, nzs_in, x):
        return {k} * x, None


{rule}

setattr({name}, "vjp_bwd", _rule)


def {func}(x):
    return {name}(jax.typeof(x))(x)
"""
VALUE_RULE = "def _rule(self, res, g):\n    return ({k} * g,)\n"
ACCUMULATOR_RULE = "def _rule(self, res, g, x_acc):\n    x_acc.accum({k} * g)\n"
TESTS = """import jax
import jax.numpy as jnp

from pkg.scale import scale
from pkg.twice import twice


def test_scale_grad():
    assert float(jax.grad(scale)(jnp.float32(3.0))) == 3.0


def test_twice_grad():
    assert float(jax.grad(twice)(jnp.float32(3.0))) == 2.0
"""


def _module(name: str, func: str, k: str, rule: str) -> str:
    return PRIMITIVE.format(name=name, func=func, k=k, rule=rule.format(k=k))


FILES = {
    "pkg/__init__.py": "",
    "pkg/scale.py": _module("Scale", "scale", "3.0", VALUE_RULE),
    "pkg/twice.py": _module("Twice", "twice", "2.0", ACCUMULATOR_RULE),
    "tests/test_prims.py": TESTS,
}
CMD = f"{sys.executable} -m pytest -q -p no:cacheprovider -p no:randomly tests"


def _verify(root: Path, tmp: Path, *more: str) -> tuple[int, dict]:
    run = tool(
        "--target-jax", "0.10", "--no-cache", "--unsafe-fixes", "--verify", CMD, "--output-format", "json", *more,
        cwd=root, tmp=tmp,
    )  # fmt: skip
    return run.returncode, json.loads(run.stdout)


def _decisions(doc: dict) -> dict[str, tuple[str, list[str]]]:
    return {", ".join(d["files"]): (d["verdict"], d["tests"]) for d in doc["verify"]["unsafe_fixes"]}


def test_the_right_fix_is_kept_and_the_breaking_one_dropped(tmp_path):
    root = project(tmp_path / "proj", FILES)
    (tmp_path / "tmp").mkdir()
    found = tree_bytes(root)
    code, doc = _verify(root, tmp_path / "tmp")
    assert code == 0
    assert _decisions(doc) == {
        "pkg/scale.py": ("kept", ["tests/test_prims.py::test_scale_grad"]),
        "pkg/twice.py": ("dropped", ["tests/test_prims.py::test_twice_grad"]),
    }
    verdicts = {row["test"]: row["verdict"] for row in doc["verify"]["tests"]}
    assert verdicts == {
        "tests/test_prims.py::test_scale_grad": "fixed",
        "tests/test_prims.py::test_twice_grad": "unchanged",
    }
    assert tree_bytes(root) == found  # without --in-place nothing is written


def test_in_place_writes_the_kept_fix_alone(tmp_path):
    root = project(tmp_path / "proj", FILES)
    (tmp_path / "tmp").mkdir()
    code, doc = _verify(root, tmp_path / "tmp", "--in-place")
    assert code == 0 and doc["verify"]["written"]
    assert (root / "pkg/scale.py").read_text() == FILES["pkg/scale.py"].replace('"vjp_bwd"', '"vjp_bwd_retval"')
    assert (root / "pkg/twice.py").read_text() == FILES["pkg/twice.py"]


def test_a_wrong_fix_its_failing_test_checks_is_not_kept(tmp_path):
    """The rename is the fix, but the rule it renames returns 5 g where the test wants 3 g:
    the test fails with the fix and without it, so nothing shows the fix right."""
    files = {**FILES, "pkg/scale.py": _module("Scale", "scale", "3.0", VALUE_RULE.replace("{k} * g", "5.0 * g"))}
    root = project(tmp_path / "proj", files)
    (tmp_path / "tmp").mkdir()
    found = tree_bytes(root)
    code, doc = _verify(root, tmp_path / "tmp", "--in-place")
    decisions = _decisions(doc)
    assert decisions["pkg/scale.py"] == ("dropped, shown right by no test", ["tests/test_prims.py::test_scale_grad"])
    assert decisions["pkg/twice.py"][0].startswith("dropped")
    assert code == 0 and tree_bytes(root) == found  # nothing to write: every fix dropped


def test_a_family_across_files_is_one_group_fixed_from_the_text_as_found(tmp_path):
    """The generator's n0022 (seed 0): a subclass in another module reaches the rule by a literal
    and follows the rename. Both files change together, from the text as found (a fix found over
    the safe migration instead broke the subclass), and the family is kept as one group."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import namespaces

    pkg = "n0022"
    tree = namespaces.draw(23, 0)[pkg]
    assert namespaces.verified(tmp_path / pkg, pkg, tree, "0.10", "auto") == "kept"  # writes check.py
    flags = ["--target-jax", "0.10", "--no-cache", "--unsafe-fixes", "--output-format", "json"]
    run = tool(*flags, "--verify", f"{sys.executable} check.py", ".", cwd=tmp_path / pkg, tmp=tmp_path)
    code, doc = run.returncode, json.loads(run.stdout)
    (group,) = doc["verify"]["unsafe_fixes"]
    assert sorted(Path(name).name for name in group["files"]) == ["prims.py", "sub.py"]
    assert group["verdict"].startswith("kept") and code == 0  # the safe migration passes its check too


def test_github_annotations_say_each_fixs_fate(tmp_path):
    root = project(tmp_path / "proj", FILES)
    (tmp_path / "tmp").mkdir()
    flags = ["--target-jax", "0.10", "--no-cache", "--unsafe-fixes", "--output-format", "github"]
    run = tool(*flags, "--verify", CMD, ".", cwd=root, tmp=tmp_path / "tmp")
    fates = [line for line in run.stdout.splitlines() if "unsafe fix" in line]
    assert any(line.startswith("::notice file=pkg/scale.py,") and "kept: exercised by" in line for line in fates)
    assert any(line.startswith("::error file=pkg/twice.py,") and "dropped: it broke" in line for line in fates)
