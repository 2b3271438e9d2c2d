"""A rule reached on a class picked from a hierarchy when the code runs
(``type(self).__mro__[1].vjp_bwd``, ``sites.ROOTED``), under a real jax (issue 40).

The namespace generator's program n0078 (seed 3) was migrated with a note, and
then recursed: ``Half``'s rule renamed, ``type(self).__mro__[1]`` of a ``Sub``
of it is ``Half`` again. Each tree below fails at the target as written; the tool
leaves it byte-identical (but 0.12's base name, another rule's) with an error that
names the form and the line, under both strategies, at 0.10 and 0.12. The control
(the same form in a hierarchy holding no primitive, beside a primitive) migrates
and gives jax's gradients."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jax_batch import HAS_JAX_HERE, JAX_012, PY312

PRIMS = """
import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def __init__(self, x):
        self.in_avals = (jax.typeof(x),)
        self.out_aval = jax.typeof(x)
        self.params = {{}}
        super().__init__()

    def expand(self, x):
        return x * x

    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = {reach}
        return (0.5 * d,)


class Sub(Half):
    pass


def sq(x):
    return {use}(x)(x)
"""
OTHER = """

class Plain:
    def vjp_bwd(self, res, g):
        return type(self).__mro__[1].vjp_bwd(self, res, g)


class Base(Plain):
    def vjp_bwd(self, res, g):
        return (res, g)


class Leaf(Base):
    pass
"""
PROBE = """
import json, jax, jax.numpy as jnp
from prims import sq
x = jnp.array([0.25, 2.0, 3.0])
f = lambda x: sq(x).sum()
print(json.dumps({"grad": jax.grad(f)(x).tolist(), "jit": jax.jit(jax.grad(f))(x).tolist(),
                  "vmap": jax.vmap(jax.grad(lambda v: sq(v).sum()))(x[:, None]).ravel().tolist()}))
"""
X = [0.25, 2.0, 3.0]
HALVED = [0.25, 2.0, 3.0]  # 2x, halved by Half
REACHES = {
    "mro": "type(self).__mro__[1].vjp_bwd(self, res, g)",
    "bases": "self.__class__.__bases__[0].vjp_bwd(self, res, g)",
    "super_of_type": "super(type(self), self).vjp_bwd(res, g)",
    "mro_call": "type(self).mro()[1].vjp_bwd(self, res, g)",
    "getattr_of_type": 'next(iter(getattr(type(self), "__mro__")[1:])).vjp_bwd(self, res, g)',
}
# name -> (prims.py, the right gradient, or None where the tool must refuse)
CASES = {
    **{name: (PRIMS.format(reach=reach, use="Half"), None) for name, reach in REACHES.items()},
    "mro_on_a_subclass": (PRIMS.format(reach=REACHES["mro"], use="Sub"), None),
    "other_hierarchy": (PRIMS.format(reach="super().vjp_bwd(res, g)", use="Half") + OTHER, HALVED),
}
TARGETS = {"0.10": (sys.executable, HAS_JAX_HERE), "0.12": (PY312, (JAX_012 or "").startswith("0.12"))}
_BEFORE: dict[tuple[str, str], dict | str] = {}  # this process's runs of the unmigrated trees


def probe(python: str, root: Path) -> dict | str:
    run = subprocess.run([python, "probe.py"], cwd=root, capture_output=True, text=True)
    return json.loads(run.stdout.splitlines()[-1]) if run.returncode == 0 else run.stderr.strip().splitlines()[-1]


def unchanged_but_the_base(after: str, before: str) -> bool:
    """Equal, but for the lines where 0.12's base name replaced the old one (HJX003)."""
    pairs = list(zip(after.splitlines(), before.splitlines()))
    return len(after.splitlines()) == len(before.splitlines()) and all(
        a == b or a == b.replace("VJPHiPrimitive", "HiPrim") for a, b in pairs
    )


@pytest.mark.jax
@pytest.mark.parametrize("strategy", ["rename", "accum"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_rooted_reach_refused_or_right_under_jax(name, target, strategy, tmp_path):
    python, present = TARGETS[target]
    if not present:
        pytest.skip(f"needs jax {target} (HIJAX_PY312 for 0.12)")
    text, expected = CASES[name]
    (tmp_path / "prims.py").write_text(text)
    (tmp_path / "probe.py").write_text(PROBE)
    if (name, target) not in _BEFORE:  # the same module under both strategies: run once
        _BEFORE[name, target] = probe(python, tmp_path)
    assert isinstance(_BEFORE[name, target], str), f"the unmigrated code already works: {_BEFORE[name, target]}"
    command = [sys.executable, "-m", "hijax_migrate", "-i", "--target-jax", target, "--strategy", strategy]
    run = subprocess.run([*command, str(tmp_path)], capture_output=True, text=True)
    said = run.stdout + run.stderr
    if expected is None:
        assert run.returncode == 1, said
        assert unchanged_but_the_base((tmp_path / "prims.py").read_text(), text)
        # one message for both classes of the family, grouped as text output groups them (issue 42)
        assert "prims.py:20: HJX001 Sq, Half (lines 20, 25): `vjp_bwd` is reached at line 26 through `" in said, said
        return
    assert run.returncode == 0, said
    after = probe(python, tmp_path)
    assert after == {"grad": expected, "jit": expected, "vmap": expected}, after
