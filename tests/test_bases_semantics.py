"""Bases in every form and version gates (issue 40), under real jax.

Each case is migrated at a target and run under that jax (0.10.2 here,
0.12 through HIJAX_PY312): a migrated module gives jax's own gradient under
grad and jit; a refused one stays byte-identical, with an error, and does
fail under that jax as written (so the error is due); one left alone on
purpose runs right as written. One jax process a release runs every module.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jax_batch import HAS_JAX_HERE, JAX_012, PY312
from test_golden import options_for

from golden import migrated

PROBE = Path(__file__).with_name("jax_probe.py")

_OP = """
class Op({base}):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, x):
        return x * 3.0

    def vjp_fwd(self, nzs_in, x):
        return x * 3.0, None
{rule}

def f(x):
    return jnp.sum(Op(jax.typeof(x))(x))


def plain(x):
    return jnp.sum(x * 3.0)


ARGS = (jnp.array([1.0, 2.0]),)
"""
_VALUE_RULE = """
    def vjp_bwd(self, res, g):
        return (g * 3.0,)
"""
_HEAD = "import jax\nimport jax.numpy as jnp\n"
_SWITCHING = """
    if jax.__version_info__ >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 3.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 3.0,)
"""
_VERSIONED_BASE = (
    "from jax.experimental import hijax\n\n"
    "Base = hijax.VJPHiPrimitive if jax.__version_info__ < (0, 11, 2) else hijax.HiPrim\n"
)
_TREE_BASES = """from jax.experimental.hijax import VJPHiPrimitive

FLAG = {flag}


class Base(VJPHiPrimitive):
    pass


class Other({other}):
    pass
"""
_PROBE_BASE = """import jax.experimental.hijax as hijax


def _resolve(*names):
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)
    raise ImportError(names)


HiPrim = _resolve("HiPrim", "VJPHiPrimitive")
"""
_GATE = """import jaxlib
from jax.experimental.hijax import VJPHiPrimitive

_SUPPORTED_VERSION = "0.11.0"

if (jax.__version__ != _SUPPORTED_VERSION or jaxlib.__version__ != _SUPPORTED_VERSION):
    raise ImportError("needs jax 0.11.0")
"""

# name -> (source, what the tool must do: "migrates"; "refuses" (an error, the class as written);
# "reports" (an error; the module fails there whatever is migrated))
CASES = {
    "conditional_tree_bases": (
        _HEAD
        + _TREE_BASES.format(flag="False", other="VJPHiPrimitive")
        + _OP.format(base="Base if FLAG else Other", rule=_VALUE_RULE),
        "migrates",
    ),
    "walrus_and_starred_bases": (
        _HEAD
        + _TREE_BASES.format(flag="True", other="VJPHiPrimitive")
        + _OP.format(base="*((B := Base),)", rule=_VALUE_RULE),
        "migrates",
    ),
    "conditional_arms_disagree": (
        _HEAD
        + _TREE_BASES.format(flag="True", other="object")
        + _OP.format(base="Base if FLAG else Other", rule=_VALUE_RULE),
        "refuses",
    ),
    "import_in_a_class_body": (
        _HEAD
        + "\n\nclass NS:\n    from jax.experimental.hijax import VJPHiPrimitive\n\n"
        + _OP.format(base="NS.VJPHiPrimitive", rule=_VALUE_RULE),
        "migrates",
    ),
    "module_imported_in_a_class_body": (
        _HEAD
        + "\n\nclass NS:\n    import jax.experimental.hijax as hjx\n\n"
        + _OP.format(base="NS.hjx.VJPHiPrimitive", rule=_VALUE_RULE),
        "migrates",
    ),
    "base_found_by_probing": (_HEAD + _PROBE_BASE + _OP.format(base="HiPrim", rule=_VALUE_RULE), "refuses"),
    "version_gate_in_an_or": (_HEAD + _GATE + _OP.format(base="VJPHiPrimitive", rule=""), "reports"),
}
SWITCH = _HEAD + _VERSIONED_BASE + _OP.format(base="Base", rule=_SWITCHING)


def _op(code: str) -> str:
    """The primitive's class statement and what follows it: a refused class keeps its bytes."""
    return code[code.index("\nclass Op(") :]


def _run(python: str, sources: dict[str, str], folder: Path) -> dict[str, dict]:
    paths = {}
    for name, source in sources.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(source)
    run = subprocess.run([python, str(PROBE), *map(str, paths.values())], capture_output=True, text=True)
    lines = run.stdout.splitlines()
    assert len(lines) == len(paths), run.stderr[-2000:]
    return {name: json.loads(line) for name, line in zip(paths, lines)}


def _migrations(target: str) -> dict[tuple[str, str], object]:
    return {
        (name, strategy): migrated(source, f"{name}.py", options_for(["--target-jax", target, "--strategy", strategy]))
        for name, (source, _) in CASES.items()
        for strategy in ("auto", "accum")
    }


def _check(target: str, python: str, tmp: Path) -> None:
    results = _migrations(target)
    sources = {f"{name}_{strategy}": result.code for (name, strategy), result in results.items()}
    sources |= {f"{name}_before": source for name, (source, _) in CASES.items()}
    ran = _run(python, sources, tmp)
    for (name, strategy), result in results.items():
        source, expected = CASES[name]
        errors = [f for f in result.report.findings if f.severity == "error"]
        out = ran[f"{name}_{strategy}"]
        if expected == "migrates":
            assert not errors, (name, strategy, errors)
            assert "error" not in out and out["grad"] == out["plain"] == out["jit"], (name, strategy, out)
            assert "error" in ran[f"{name}_before"], name  # the migration was needed
        else:
            assert errors, (name, strategy)
            assert expected == "reports" or _op(result.code) == _op(source), (name, strategy, result.code)
            assert "error" in out, (name, strategy, out)  # the error is due: as written, it fails there


@pytest.mark.skipif(not HAS_JAX_HERE, reason="needs jax")
def test_bases_and_gates_under_jax_010(tmp_path):
    _check("0.10", sys.executable, tmp_path)


@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
def test_bases_and_gates_under_jax_012(tmp_path):
    _check("0.12", PY312, tmp_path)


@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_a_class_body_switching_on_the_version_is_left_alone_and_runs_right_under_jax_012(tmp_path, strategy):
    result = migrated(SWITCH, "switch.py", options_for(["--target-jax", "0.12", "--strategy", strategy]))
    assert result.code == SWITCH
    assert not [f for f in result.report.findings if f.severity == "error"]
    out = _run(PY312, {"switch": SWITCH}, tmp_path)["switch"]
    assert "error" not in out and out["grad"] == out["plain"] == out["jit"], out


@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_a_class_body_switching_on_the_version_is_still_refused_where_the_target_takes_the_value_rule(strategy):
    result = migrated(SWITCH, "switch.py", options_for(["--target-jax", "0.10", "--strategy", strategy]))
    assert result.code == SWITCH
    assert [f for f in result.report.findings if f.severity == "error"]
