"""As a new user would: a repository written against jax 0.8.0, migrated on
the command line with ``--target-jax 0.12 --update-pin``, runs under jax 0.12
with the right gradients (and vmap, through its own ``batch``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_semantics import JAX_012, PY312

PRIMS = '''import jax
from jax._src.hijax import NewstyleHiPrimitive


class Scale(NewstyleHiPrimitive):
    def __init__(self, aval, factor):
        super().__init__((aval,), aval, factor=factor)

    def expand(self, x):
        return self.factor * x

    def vjp_fwd(self, x):
        return self.factor * x, None

    def vjp_bwd(self, res, g):
        return (self.factor * g,)

    def batch(self, axis_data, args, dims):
        (x,), (d,) = args, dims
        return Scale(jax.typeof(x), self.factor)(x), d


class Mul(NewstyleHiPrimitive):
    def __init__(self, aval):
        super().__init__([aval, aval], aval)

    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
'''
RUN = '''import json
import jax
import jax.numpy as jnp
from mylib.prims import Mul, Scale


def f(x, y):
    return jnp.sum(Scale(jax.typeof(x), 3.0)(Mul(jax.typeof(x))(x, y)))


x, y = jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 2.0, 3.0])
grads = jax.grad(f, argnums=(0, 1))(x, y)
jitted = jax.jit(jax.grad(f, argnums=(0, 1)))(x, y)
mapped = jax.vmap(jax.grad(lambda a, b: Scale(jax.typeof(a), 3.0)(a) * b))(x, y)
print(json.dumps([[g.tolist() for g in grads], [g.tolist() for g in jitted], mapped.tolist()]))
'''


@pytest.mark.jax
@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
def test_a_080_repository_runs_under_012_after_migration(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "mylib").mkdir()
    (tmp_path / "mylib" / "__init__.py").write_text("")
    (tmp_path / "mylib" / "prims.py").write_text(PRIMS)
    (tmp_path / "run.py").write_text(RUN)
    (tmp_path / "requirements.txt").write_text("jax>=0.8.0\n")

    def run_under_012():
        return subprocess.run([PY312, "run.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)

    assert "NewstyleHiPrimitive" in run_under_012().stderr  # it fails before
    migrate = subprocess.run([sys.executable, "-m", "hijax_migrate", "--in-place", "--update-pin",
                              "--target-jax", "0.12", "."], cwd=tmp_path, capture_output=True, text=True)
    assert migrate.returncode == 0, migrate.stderr
    assert (tmp_path / "requirements.txt").read_text() == "jax>=0.11.2\n"
    after = run_under_012()
    assert after.returncode == 0, after.stderr
    grads = [[3.0, 6.0, 9.0], [0.0, 3.0, 6.0]]  # d/dx = 3y, d/dy = 3x
    assert after.stdout.strip() == str([grads, grads, [3.0, 6.0, 9.0]]).replace("'", '"')
