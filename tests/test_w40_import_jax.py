"""A rule imported into a class body (``from .rules import bwd as vjp_bwd``, enumeration A8),
under a real jax (issue 40).

Python binds the ``as`` name in the class namespace to the object ``.rules`` binds to
``bwd``; where that is a plain function of the tree returning cotangents, renaming the
``as`` name binds the same function under ``vjp_bwd_retval`` (as ``vjp_bwd = f`` renamed).
Each tree fails at the target as written; migrated at 0.10 and 0.12 under both strategies,
it gives jax's gradients under grad, jit and vmap, or stays byte-identical (but 0.12's base
name) with an error naming the import. An imported accumulator rule is right as written,
and left alone without an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jax_batch import HAS_JAX_HERE, JAX_012, PY312

PRIMS = """import jax
from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def __init__(self, x):
        self.in_avals = (jax.typeof(x),)
        self.out_aval = jax.typeof(x)
        self.params = {}
        super().__init__()

    def expand(self, x):
        return x * x

    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    from .rules import bwd as vjp_bwd


def sq(x):
    return Sq(x)(x)
"""
VALUE = '"""The backward rules."""\n\n\ndef bwd(self, res, g):\n    return (2 * res * g,)\n'
ACCUMULATOR = '"""The backward rules."""\n\n\ndef bwd(self, res, g, x_acc):\n    x_acc.accum(2 * res * g)\n'
HALF = """from .prims import Sq


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = super().vjp_bwd(res, g)
        return (0.5 * d,)


def half(x):
    return Half(x)(x)
"""
PROBE = """
import json, jax, jax.numpy as jnp
from pkg.{module} import {f} as sq
x = jnp.array([0.25, 2.0, 3.0])
f = lambda x: sq(x).sum()
print(json.dumps({{"grad": jax.grad(f)(x).tolist(), "jit": jax.jit(jax.grad(f))(x).tolist(),
                  "vmap": jax.vmap(jax.grad(lambda v: sq(v).sum()))(x[:, None]).ravel().tolist()}}))
"""
X = [0.25, 2.0, 3.0]
HALVED = [0.25, 2.0, 3.0]  # 2x, halved by Half
# name -> (the package's files, the function probed, the right gradient or None where refused)
CASES = {
    "value_rule": ({"rules.py": VALUE, "prims.py": PRIMS}, ("prims", "sq"), [0.5, 4.0, 6.0]),
    "subclass_in_another_file": (
        {"rules.py": VALUE, "prims.py": PRIMS, "half.py": HALF},
        ("half", "half"),
        HALVED,
    ),
    "list_result": (
        {"rules.py": VALUE.replace("return (2 * res * g,)", "return [2 * res * g]"), "prims.py": PRIMS},
        ("prims", "sq"),
        None,
    ),
}
TARGETS = {"0.10": (sys.executable, HAS_JAX_HERE), "0.12": (PY312, (JAX_012 or "").startswith("0.12"))}
_BEFORE: dict[tuple[str, str], dict | str] = {}  # this process's runs of the unmigrated trees


def write(root: Path, files: dict[str, str], probed: tuple[str, str]) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)
    (root / "probe.py").write_text(PROBE.format(module=probed[0], f=probed[1]))


def probe(python: str, root: Path) -> dict | str:
    run = subprocess.run([python, "probe.py"], cwd=root, capture_output=True, text=True)
    return json.loads(run.stdout.splitlines()[-1]) if run.returncode == 0 else run.stderr.strip().splitlines()[-1]


def migrate(root: Path, target: str, strategy: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "hijax_migrate", "-i", "--target-jax", target, "--strategy", strategy]
    return subprocess.run([*command, str(root / "pkg")], capture_output=True, text=True)


def unchanged_but_the_base(after: str, before: str) -> bool:
    """Equal, but for the lines where 0.12's base name replaced the old one (HJX003)."""
    pairs = list(zip(after.splitlines(), before.splitlines()))
    return len(after.splitlines()) == len(before.splitlines()) and all(
        a == b or a == b.replace("VJPHiPrimitive", "HiPrim") for a, b in pairs
    )


def needs(target: str) -> str:
    python, present = TARGETS[target]
    if not present:
        pytest.skip(f"needs jax {target} (HIJAX_PY312 for 0.12)")
    return python


@pytest.mark.jax
@pytest.mark.parametrize("strategy", ["rename", "accum"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_imported_rule_migrated_right_or_refused_under_jax(name, target, strategy, tmp_path):
    python = needs(target)
    files, probed, expected = CASES[name]
    write(tmp_path, files, probed)
    if (name, target) not in _BEFORE:  # the same tree under both strategies: run once
        _BEFORE[name, target] = probe(python, tmp_path)
    assert isinstance(_BEFORE[name, target], str), f"the unmigrated code already works: {_BEFORE[name, target]}"
    run = migrate(tmp_path, target, strategy)
    said = run.stdout + run.stderr
    if expected is None:
        assert run.returncode == 1, said
        assert unchanged_but_the_base((tmp_path / "pkg" / "prims.py").read_text(), files["prims.py"])
        assert "prims.py:18: HJX001 Sq: `vjp_bwd` is bound by an import whose function cannot be proven" in said
        return
    assert run.returncode == 0, said
    assert "from .rules import bwd as vjp_bwd_retval\n" in (tmp_path / "pkg" / "prims.py").read_text()
    assert (tmp_path / "pkg" / "rules.py").read_text() == files["rules.py"]  # the function is not the class's
    after = probe(python, tmp_path)
    assert after == {"grad": expected, "jit": expected, "vmap": expected}, after


@pytest.mark.jax
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_imported_accumulator_rule_left_alone_and_right(target, tmp_path):
    python = needs(target)
    files = {"rules.py": ACCUMULATOR, "prims.py": PRIMS}
    write(tmp_path, files, ("prims", "sq"))
    expected = [0.5, 4.0, 6.0]
    if target == "0.10":  # (0.12 has renamed the base, which HJX003 migrates)
        assert probe(python, tmp_path) == {"grad": expected, "jit": expected, "vmap": expected}
    run = migrate(tmp_path, target, "auto")
    assert run.returncode == 0 and "error" not in run.stdout + run.stderr, run.stdout + run.stderr
    assert unchanged_but_the_base((tmp_path / "pkg" / "prims.py").read_text(), PRIMS)
    assert probe(python, tmp_path) == {"grad": expected, "jit": expected, "vmap": expected}
