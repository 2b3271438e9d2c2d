"""Suppressions under a real jax: a class left alone beside migrated ones in one
file (their shared import of a base the target removed kept working for both),
and a suppression that leaves code failing, which ``--check`` must not pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_runs import FORKER
from jax_batch import HAS_JAX_HERE, JAX_012, PY312

PROBE = Path(__file__).with_name("jax_probe.py")
needs_jax = pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python")
needs_012 = pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")

HEAD = """import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Binary(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {}
        super().__init__()
"""
ACCUM = """

class Add(Binary):{mark}
    def expand(self, x, y):
        return x + y

    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)
"""
VALUE = """

class Mul(VJPHiPrimitive):{mark}
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""
FOOT = """

def f(x, y):
    return jnp.sum(Mul(jax.typeof(x))(x, y)) + jnp.sum(Add(jax.typeof(x))(x, y))


ARGS = (jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 2.0, 3.0]))
ARGNUMS = (0, 1)
"""
# d/dx (x * y + x + y) = y + 1, d/dy = x + 1
RIGHT = [[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]]
SKIP = "  # hijax-migrate: skip"


def module(add_mark: str = "", mul_mark: str = "") -> str:
    return HEAD + ACCUM.format(mark=add_mark) + VALUE.format(mark=mul_mark) + FOOT


def probe(python: str, path: Path) -> dict:
    run = subprocess.run([python, str(PROBE), str(path)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def migrated(tmp_path: Path, code: str, target: str, *flags: str):
    (tmp_path / "ops.py").write_text(code)
    check = FORKER.module("hijax_migrate", ["--target-jax", target, "--check", *flags, "ops.py"], tmp_path)
    run = FORKER.module("hijax_migrate", ["--target-jax", target, "--in-place", *flags, "ops.py"], tmp_path)
    after = FORKER.module("hijax_migrate", ["--target-jax", target, "--check", *flags, "ops.py"], tmp_path)
    return check, run, after


def checked_right(tmp_path: Path, python: str, target: str, *flags: str) -> None:
    """A class left alone by a skip, its family with it, beside a class migrated: it runs right."""
    code = module(add_mark=SKIP)
    broken = probe(python, _written(tmp_path / "before", code))
    assert "error" in broken, broken  # the value rule fails unmigrated
    check, run, after = migrated(tmp_path, code, target, *flags)
    assert check.returncode == 1 and run.returncode == 0, run.stderr
    new = (tmp_path / "ops.py").read_text()
    assert ACCUM.format(mark=SKIP) in new and HEAD.split("\n\n\n")[1] in new  # the skip's family keeps its bytes
    assert after.returncode == 0, after.stderr  # nothing left to do, nothing the skip leaves broken
    result = probe(python, tmp_path / "ops.py")
    assert result.get("grad") == RIGHT and result.get("jit") == RIGHT, result


def _written(folder: Path, code: str) -> Path:
    folder.mkdir()
    (folder / "ops.py").write_text(code)
    return folder / "ops.py"


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_a_skipped_class_and_a_migrated_one_share_the_removed_base_under_jax_012(tmp_path, strategy):
    checked_right(tmp_path, PY312, "0.12", "--strategy", strategy)
    assert "from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive\n" in (tmp_path / "ops.py").read_text()


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_a_skipped_class_and_a_migrated_one_in_one_file_under_jax_010(tmp_path, strategy):
    checked_right(tmp_path, sys.executable, "0.10", "--strategy", strategy)


@pytest.mark.jax
@needs_jax
def test_a_skip_that_leaves_a_value_rule_fails_the_check_as_it_fails_under_jax_010(tmp_path):
    """The error (exit 1) is right: the class left alone fails under jax."""
    check, run, after = migrated(tmp_path, module(mul_mark=SKIP), "0.10")
    assert after.returncode == 1 and "left failing under the target by a suppression: ops.py:26" in after.stderr
    assert (tmp_path / "ops.py").read_text() == module(mul_mark=SKIP)  # nothing else needed migrating
    assert "error" in probe(sys.executable, tmp_path / "ops.py")
