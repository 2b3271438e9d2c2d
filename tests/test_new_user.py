"""As a new user would: a repository written against jax 0.8.0, migrated on
the command line with ``--target-jax 0.12 --update-pin``, runs under jax 0.12
with the right gradients (and vmap, through its own ``batch``); and the
second hour (issue 42), as one who knows ruff and black tries it. Each point
has its own file too: ``test_n42_target.py`` (one target, visible),
``test_n42_flags.py``, ``test_n42_messages.py``, ``test_n42_habits.py``,
``test_n42_import_layout.py``, ``test_n42_wording.py``."""

from __future__ import annotations

import json
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


OLD_PRIMS = "from jax.experimental.hijax import HiPrimitive\n" + "".join(
    f"\n\nclass {name}(HiPrimitive):\n    pass\n" for name in ("A", "B", "C")
)


def test_the_second_hour(tmp_path):
    """One session of a ruff and black user: a typo'd flag, the rules at the
    pinned target, black's CI pair, one line for one message, ruff's flags."""

    def run(*args: str):
        return FORKER.module("hijax_migrate", args, tmp_path)

    write_repository(tmp_path)
    (tmp_path / "mylib" / "old.py").write_text(OLD_PRIMS)
    typo = run("--inplace", ".")
    assert (typo.returncode, typo.stderr) == (
        2,
        "hijax-migrate: error: unknown option --inplace; did you mean --in-place?\n",
    )
    listed = json.loads(run("--list-rules", "--output-format", "json").stdout)
    assert listed["target"]["pinned"] and listed["target"]["jax"] == "0.12.0"  # jax>=0.8.0: the newest it allows
    assert len(listed["rules"]) == sum(r["active"] for r in listed["rules"])
    ci = run("--check", "--diff", ".")
    assert ci.returncode == 1 and "+++ b/mylib/prims.py" in ci.stdout
    assert ci.stderr.splitlines()[0].startswith("target: jax 0.12.0 (pinned in ")
    assert sum(line.startswith("error: mylib/old.py:") for line in ci.stderr.splitlines()) == 1  # A, B, C: one line
    assert "\tHJX008\t[ ] old-hiprimitive (error)" in run("--statistics", ".").stdout
    assert run("--add-noqa", ".").returncode == 0
    assert (tmp_path / "mylib" / "old.py").read_text().count("# noqa: HJX008") == 3
    assert "target " in run("--show-settings").stdout
    # ruff's per-file-ignores: a file of old classes left alone by the rule, the others not
    (tmp_path / "mylib" / "older.py").write_text(OLD_PRIMS)
    assert any(line.startswith("error: mylib/older.py:") for line in run("--check", ".").stderr.splitlines())
    (tmp_path / "pyproject.toml").write_text('[tool.hijax-migrate.per-file-ignores]\n"mylib/older.py" = ["HJX008"]\n')
    ignored = run("--check", ".")
    assert not any(line.startswith("error: mylib/older.py:") for line in ignored.stderr.splitlines())
    assert ignored.returncode == 1 and "mylib/prims.py" in ignored.stdout  # prims.py still waits for its migration
