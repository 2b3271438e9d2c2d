"""Suppressions under a real jax: a class left alone beside migrated ones in one
file (their shared import of a base the target removed kept working for both),
and a suppression that leaves code failing, which ``--check`` must not pass.

Each module is migrated by the command (fresh processes) while its release's jax batch is
made (``suppression_checks``, an extra of ``jax_batch``), and run, before and after, by
that batch: one jax process a release; each test reads its own results."""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_runs import FORKER
from jax_batch import HAS_JAX_HERE, JAX_012, Check

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


def migrated(tmp_path: Path, code: str, target: str, *flags: str):
    (tmp_path / "ops.py").write_text(code)
    check = FORKER.module("hijax_migrate", ["--target-jax", target, "--check", *flags, "ops.py"], tmp_path)
    run = FORKER.module("hijax_migrate", ["--target-jax", target, "--in-place", *flags, "ops.py"], tmp_path)
    after = FORKER.module("hijax_migrate", ["--target-jax", target, "--check", *flags, "ops.py"], tmp_path)
    return check, run, after


STRATEGIES = ("auto", "accum")
# name -> (the module, the targets it is migrated at, its flags)
CASES = {
    **{f"skip beside {s}": (module(add_mark=SKIP), ("0.10", "0.12"), ("--strategy", s)) for s in STRATEGIES},
    "skip leaving a value rule": (module(mul_mark=SKIP), ("0.10",), ()),
}


def suppression_checks(target: str):
    """An extra of the batch of ``target``: each module run as written, migrated (checked
    before and after) in a folder of its own, and run again: {("suppression", name): Check}
    whose ``migrated`` is the three runs of the command, ``files`` the module after them."""

    def extra(batch) -> dict:
        checks = {}
        for name, (code, targets, flags) in CASES.items():
            if target in targets:
                folder = batch.folder_for(f"suppression/{name}")
                with pytest.MonkeyPatch.context() as patch:  # a cache of the case's own, as a test's
                    patch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(folder.parent / f"{folder.name}-cache"))
                    runs = migrated(folder, code, target, *flags)
                new = (folder / "ops.py").read_text()
                check = Check(batch, runs, before=batch.module(code), after=batch.module(new), files={"ops.py": new})
                checks["suppression", name] = check
        return checks

    return extra


def checked_right(check: Check) -> str:
    """A class left alone by a skip, its family with it, beside a class migrated: it runs right."""
    (check_run, run, after), broken, result = check.results()
    assert "error" in broken, broken  # the value rule fails unmigrated
    assert check_run.returncode == 1 and run.returncode == 0, run.stderr
    new = check.files["ops.py"]
    assert ACCUM.format(mark=SKIP) in new and HEAD.split("\n\n\n")[1] in new  # the skip's family keeps its bytes
    assert after.returncode == 0, after.stderr  # nothing left to do, nothing the skip leaves broken
    assert result.get("grad") == RIGHT and result.get("jit") == RIGHT, result
    return new


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_skipped_class_and_a_migrated_one_share_the_removed_base_under_jax_012(strategy, jax_012_runs):
    new = checked_right(jax_012_runs["suppression", f"skip beside {strategy}"])
    assert "from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive\n" in new


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_skipped_class_and_a_migrated_one_in_one_file_under_jax_010(strategy, jax_010_runs):
    checked_right(jax_010_runs["suppression", f"skip beside {strategy}"])


@pytest.mark.jax
@needs_jax
def test_a_skip_that_leaves_a_value_rule_fails_the_check_as_it_fails_under_jax_010(jax_010_runs):
    """The error (exit 1) is right: the class left alone fails under jax."""
    check = jax_010_runs["suppression", "skip leaving a value rule"]
    (_, _, after), _, result = check.results()
    assert after.returncode == 1 and "left failing under the target by a suppression: ops.py:26" in after.stderr
    assert check.files["ops.py"] == module(mul_mark=SKIP)  # nothing else needed migrating
    assert "error" in result
