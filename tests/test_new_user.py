"""As a new user would: a repository written against jax 0.8.0, migrated on
the command line with ``--target-jax 0.12 --update-pin``, runs under jax 0.12
with the right gradients (and vmap, through its own ``batch``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_runs import FORKER
from test_semantics import JAX_012

PRIMS = """import jax
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
"""
RUN = """import json
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
"""


def write_repository(root: Path) -> None:
    (root / ".git").mkdir()
    (root / "mylib").mkdir()
    (root / "mylib" / "__init__.py").write_text("")
    (root / "mylib" / "prims.py").write_text(PRIMS)
    (root / "run.py").write_text(RUN)
    (root / "requirements.txt").write_text("jax>=0.8.0\n")


def new_user_scripts(batch) -> dict:
    """An extra of jax_012_runs: the repository as written, and a copy migrated
    by the command (a fresh process); each one's ``python run.py`` run by the batch."""
    before, after = batch.folder_for("new-user/before"), batch.folder_for("new-user/after")
    write_repository(before)
    write_repository(after)
    migrate = FORKER.module("hijax_migrate", ["--in-place", "--update-pin", "--target-jax", "0.12", "."], after)
    return {
        ("script", "new user", "before"): batch.script(before / "run.py"),
        ("script", "new user", "after"): batch.script(
            after / "run.py", data=(migrate, (after / "requirements.txt").read_text())
        ),
    }


@pytest.mark.jax
@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
def test_a_080_repository_runs_under_012_after_migration(jax_012_runs):
    """The repository is run under jax 0.12 before (``run.py`` in its folder),
    migrated by ``python -m hijax_migrate``, and run again: both runs are the batch's."""
    assert "NewstyleHiPrimitive" in jax_012_runs["script", "new user", "before"].ran().stderr  # it fails before
    script = jax_012_runs["script", "new user", "after"]
    migrate, requirements = script.data
    assert migrate.returncode == 0, migrate.stderr
    assert requirements == "jax>=0.11.2\n"
    after = script.ran()
    assert after.returncode == 0, after.stderr
    grads = [[3.0, 6.0, 9.0], [0.0, 3.0, 6.0]]  # d/dx = 3y, d/dy = 3x
    assert after.stdout.strip() == str([grads, grads, [3.0, 6.0, 9.0]]).replace("'", '"')
