"""References to a rule by name, and rules bound by ``partialmethod`` with keywords, under a
real jax (issue 40): each tree is migrated at 0.10 and 0.12 under both strategies, then
either runs with jax's gradients (grad, jit, vmap), or is left byte-identical with an error
naming the reference, where the unmigrated code fails at the target.

Each tree is migrated by the command (a fresh process) while its release's jax batch is made
(``names_scripts``, an extra of ``jax_batch``), and its ``probe.py`` run by that batch, as
``python probe.py`` in the tree's folder: one jax process a release; each test reads its own."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER
from jax_batch import HAS_JAX_HERE, JAX_012

SQ = """
import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive
{extra}

class {base_name}({base}):
    def __init__(self, x):
        self.in_avals = (jax.typeof(x),)
        self.out_aval = jax.typeof(x)
        self.params = {{}}
        super().__init__()

    def expand(self, x):
        return x * x

    def vjp_fwd(self, nzs_in, x):
        return x * x, x

{rule}
"""
PROBE = """
import json, jax, jax.numpy as jnp
from prims import sq
x = jnp.array([0.25, 2.0, 3.0])
f = lambda x: sq(x).sum()
print(json.dumps({"grad": jax.grad(f)(x).tolist(), "jit": jax.jit(jax.grad(f))(x).tolist(),
                  "vmap": jax.vmap(jax.grad(lambda v: sq(v).sum()))(x[:, None]).ravel().tolist()}))
"""
VALUE_RULE = "    def vjp_bwd(self, res, g):\n        return (2 * res * g,)\n"
CLIP_BASE = """
class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = cls.__dict__.get("vjp_bwd")
        if rule is not None:
            def clipped(self, res, g, _rule=rule):
                return tuple(jnp.clip(c, -1.0, 1.0) for c in _rule(self, res, g))
            setattr(cls, "vjp_bwd", clipped)
"""
CLIP_DECORATOR = """
def clip_cotangents(cls):
    rule = vars(cls)["vjp_bwd"]
    def clipped(self, res, g):
        return tuple(jnp.clip(c, -1.0, 1.0) for c in rule(self, res, g))
    cls.vjp_bwd = clipped
    return cls
"""
HALF = (
    "\n\nclass Half(Sq):\n    def vjp_bwd(self, res, g):\n        (d,) = {ref}(self, res, g)\n"
    "        return (0.5 * d,)\n"
)


def prims(rule=VALUE_RULE, extra="", base="VJPHiPrimitive", name="Sq", tail="", sq="Sq") -> str:
    body = SQ.format(extra=extra, base=base, base_name=name, rule=rule)
    return body + tail + f"\n\ndef sq(x):\n    return {sq}(x)(x)\n"


X = [0.25, 2.0, 3.0]
CLIPPED = [0.5, 1.0, 1.0]  # 2x, clipped to [-1, 1] by the wrapper
# name -> (files, the right gradient, or None where the tool must refuse)
CASES = {
    "partialmethod_keyword": (
        {
            "prims.py": prims(
                "    vjp_bwd = functools.partialmethod(_bwd, scale=0.5)\n",
                extra="import functools\n\n\ndef _bwd(self, res, g, scale):\n    return (scale * 2 * res * g,)\n",
            )
        },
        X,
    ),
    "init_subclass_dict_get": ({"prims.py": prims(extra=CLIP_BASE, base="Clipped")}, CLIPPED),
    "decorator_setattr": (
        {
            "prims.py": prims(
                extra=CLIP_DECORATOR.replace("    cls.vjp_bwd = clipped", '    setattr(cls, "vjp_bwd", clipped)')
            ).replace("\nclass Sq", "\n@clip_cotangents\nclass Sq")
        },
        CLIPPED,
    ),
    "decorator_vars": (
        {"prims.py": prims(extra=CLIP_DECORATOR).replace("\nclass Sq", "\n@clip_cotangents\nclass Sq")},
        None,
    ),
    "constant_local": (
        {"prims.py": prims(extra='NAME = "vjp_bwd"', tail=HALF.format(ref="getattr(Sq, NAME)"), sq="Half")},
        None,
    ),
    "constant_imported": (
        {
            "names.py": 'NAME = "vjp_" "bwd"\n',
            "prims.py": prims(extra="from names import NAME", tail=HALF.format(ref="getattr(Sq, NAME)"), sq="Half"),
        },
        None,
    ),
    "attrgetter": (
        {
            "prims.py": prims(
                extra='import operator\nRULE = operator.attrgetter("vjp_" + "bwd")',
                tail=HALF.format(ref="RULE(Sq)"),
                sq="Half",
            )
        },
        None,
    ),
    "dict_key": ({"prims.py": prims(tail=HALF.format(ref='Sq.__dict__["vjp_bwd"]'), sq="Half")}, X),
    "vars_key": ({"prims.py": prims(tail=HALF.format(ref='vars(Sq)[r"vjp_" "\\x62wd"]'), sq="Half")}, None),
    "names_in_a_loop": (
        {
            "prims.py": prims(
                tail=HALF.format(ref="self._saved")
                + '\n\nfor _n in ("vjp_fwd", "vjp_bwd"):\n'
                + '    setattr(Half, "_saved" if _n == "vjp_bwd" else "_f", getattr(Sq, _n))\n',
                sq="Half",
            )
        },
        None,
    ),
}
STRATEGIES = ("rename", "accum")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_text(text)
    (root / "probe.py").write_text(PROBE)


def unchanged_but_the_base(after: str, before: str) -> bool:
    """Equal, but for the lines where 0.12's base name replaced the old one (another rule)."""
    pairs = list(zip(after.splitlines(), before.splitlines()))
    return len(after.splitlines()) == len(before.splitlines()) and all(
        a == b or a == b.replace("VJPHiPrimitive", "HiPrim") for a, b in pairs
    )


def migrate(root: Path, target: str, strategy: str) -> subprocess.CompletedProcess:
    """``python -m hijax_migrate -i --target-jax TARGET --strategy STRATEGY ROOT``, with a cache of its own."""
    args = ["-i", "--target-jax", target, "--strategy", strategy, str(root)]
    env = {**os.environ, "HIJAX_MIGRATE_CACHE_DIR": str(root.parent / f"{root.name}-cache")}
    return FORKER.module("hijax_migrate", args, Path.cwd(), env=env)


def probed(run: subprocess.CompletedProcess) -> dict | str:
    """What ``python probe.py`` printed, or the last line of its error."""
    return json.loads(run.stdout.splitlines()[-1]) if run.returncode == 0 else run.stderr.strip().splitlines()[-1]


def names_scripts(target: str):
    """An extra of the batch of ``target``: each tree as written (once, for both strategies),
    and migrated under each strategy; each one's ``probe.py`` run by the batch (a refused
    tree's too, as written: the test reads only what the migration left)."""

    def extra(batch) -> dict:
        scripts = {}
        for name, (files, _) in CASES.items():
            before = batch.folder_for(f"names/{name}/before")
            write(before, files)
            scripts["names", name, "before"] = batch.script(before / "probe.py")
            for strategy in STRATEGIES:
                root = batch.folder_for(f"names/{name}/{strategy}")
                write(root, files)
                run = migrate(root, target, strategy)
                after = {n: (root / n).read_text() for n in files}
                scripts["names", name, strategy] = batch.script(root / "probe.py", data=(run, after))
        return scripts

    return extra


def check(runs: dict, name: str, strategy: str) -> None:
    files, expected = CASES[name]
    before = probed(runs["names", name, "before"].ran())
    assert isinstance(before, str), f"the unmigrated code already works: {before}"
    script = runs["names", name, strategy]
    run, after_files = script.data
    said = run.stdout + run.stderr
    if expected is None:  # refused: every file as it was (but the base's name, at 0.12), an error naming the reference
        assert run.returncode == 1, said
        for n, text in files.items():
            assert unchanged_but_the_base(after_files[n], text), n
        # HJX001 names the reference; HJX016, which halts the file first, the binding a wrapper makes
        assert "is reached by name at" in said or "HJX016" in said, said
        return
    assert run.returncode == 0, run.stdout + run.stderr
    after = probed(script.ran())
    assert after == {"grad": expected, "jit": expected, "vmap": expected}, after


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="needs jax 0.10")
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_migrated_right_or_refused_under_jax_010(name, strategy, jax_010_runs):
    check(jax_010_runs, name, strategy)


@pytest.mark.jax
@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs jax 0.12 (HIJAX_PY312)")
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_migrated_right_or_refused_under_jax_012(name, strategy, jax_012_runs):
    check(jax_012_runs, name, strategy)
