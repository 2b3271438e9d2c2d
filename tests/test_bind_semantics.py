"""Under a real jax: a rule bound in a form no rule follows fails at the target,
and the tool no longer says "nothing left to fix" about it.

Each module binds a value-returning ``vjp_bwd`` on a primitive in a form the
tool once passed over in silence (exit 0, ``--check`` clean): jax 0.10.2 then
fails with ``_mul_bwd() takes 3 positional arguments but 5 were given`` (two inputs, two accumulators). Now
the tool reports an HJX016 error naming the form, the class and the line, the
file stays byte-identical, and ``--check`` fails. One form it does migrate is
run beside them: renamed, it gives jax's gradients.
"""

from __future__ import annotations

import sys

import pytest
from hijax_migrate.cli import main
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options
from semantic_cases import BATCH_HEADER, FOOTER, HEADER, X, Y
from test_semantics import HAS_JAX_HERE, JAX_012, PY312, probe_many

BWD = """

def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)

"""
FWD = """
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)
"""
# form -> the classes' code after HEADER, and the line of the binding the error names (a for target
# over one item and a chained assignment are migrated now: tests/test_prove_bindings.py)
SILENT_BEFORE = {
    "an annotated assignment": (BWD + f"class Mul(Binary):{FWD}\n    vjp_bwd: object = _mul_bwd\n", 29),
    "an attribute assignment after the class": (BWD + f"class Mul(Binary):{FWD}\n\nMul.vjp_bwd = _mul_bwd\n", 30),
    "setattr": (BWD + f"class Mul(Binary):{FWD}\n\nsetattr(Mul, 'vjp_bwd', _mul_bwd)\n", 30),
    "a locals()/vars() store": (BWD + f"class Mul(Binary):{FWD}\n    locals()['vjp_bwd'] = _mul_bwd\n", 29),
    "a class decorator": (
        BWD + "def _with_rule(cls):\n    cls.vjp_bwd = _mul_bwd\n    return cls\n\n\n"
        f"@_with_rule\nclass Mul(Binary):{FWD}",
        26,
    ),
}
MIGRATED = BWD + f"class Mul(Binary):{FWD}\n    vjp_bwd = _mul_bwd\n"
# ``vjp_fwd`` bound in other forms than a ``def``, to the module's function that takes ``nzs_in``:
# proven right (HJX016's accounts), so HJX001 migrates the value rule beside it
FWD_FUNC = "def _mul_fwd(self, nzs_in, x, y):\n    return x * y, (x, y)\n\n\n"
VALUE_DEF = "    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n"
PROVED_FWD = {
    "vjp_fwd by a type() member": BWD
    + FWD_FUNC
    + 'Mul = type("Mul", (Binary,), {"vjp_fwd": _mul_fwd, "vjp_bwd": _mul_bwd})\n',
    "vjp_fwd by an assignment": BWD + FWD_FUNC + f"class Mul(Binary):\n    vjp_fwd = _mul_fwd\n\n{VALUE_DEF}",
    "vjp_fwd after the class": BWD + FWD_FUNC + f"class Mul(Binary):\n{VALUE_DEF}\n\nMul.vjp_fwd = _mul_fwd\n",
}


def module(classes: str) -> str:
    return HEADER + classes + FOOTER.format(cls="Mul", x=X, y=Y)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each silent form's module, and the migrated one's output, run by one jax process."""
    folder = tmp_path_factory.mktemp("bind")
    sources = [module(code) for code, _ in SILENT_BEFORE.values()]
    migrated = migrate_source(module(MIGRATED), "m.py", Options(target=(0, 10, 0))).code
    fwd = [module(code) for code in PROVED_FWD.values()]
    fwd_migrated = [migrate_source(code, "m.py", Options(target=(0, 10, 0))).code for code in fwd]
    names = [*SILENT_BEFORE, "migrated", *(f"{form}: found" for form in PROVED_FWD), *PROVED_FWD]
    return dict(zip(names, probe_many(sys.executable, [*sources, migrated, *fwd, *fwd_migrated], folder)))


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("form", list(SILENT_BEFORE))
def test_a_form_that_fails_under_jax_is_an_error(form, runs, tmp_path):
    code, line = SILENT_BEFORE[form]
    source = module(code)
    assert "takes 3 positional arguments but 5 were given" in runs[form]["error"], runs[form]
    result = migrate_source(source, "m.py", Options(target=(0, 10, 0)))
    assert result.code == source
    errors = [(f.line, f.rule) for f in result.report.findings if f.severity == "error"]
    assert errors == [(line, "HJX016")], result.report.findings
    assert f"is bound by {form} (`" in result.report.findings[0].message
    path = tmp_path / "m.py"
    path.write_text(source)
    assert main(["--check", "--target-jax", "0.10", "--no-cache", str(path)]) == 1


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
def test_the_form_the_rules_follow_is_migrated_to_jaxs_gradients(runs):
    assert "error" not in runs["migrated"], runs["migrated"]
    assert runs["migrated"]["grad"] == [Y, X] and runs["migrated"]["jit"] == [Y, X]


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("form", list(PROVED_FWD))
def test_vjp_fwd_bound_to_a_function_taking_nzs_in_is_proven_and_the_rule_migrated(form, runs):
    """Refused by HJX016 before (the namespace generator's ``type()`` members): a binding whose
    value is the module's one function of its name, already taking ``nzs_in``, is right at 0.10."""
    source = module(PROVED_FWD[form])
    assert "takes 3 positional arguments but 5 were given" in runs[f"{form}: found"].get("error", "")
    result = migrate_source(source, "m.py", Options(target=(0, 10, 0)))
    assert [f for f in result.report.findings if f.severity == "error"] == []
    assert result.code != source and "vjp_bwd_retval" in result.code
    assert "error" not in runs[form], runs[form]
    assert runs[form]["grad"] == [Y, X] and runs[form]["jit"] == [Y, X]


# jax 0.12: the same forms on a ``HiPrim`` batched by its own ``batch`` (``batch_dim_rule`` is gone)
HEADER_012 = BATCH_HEADER.replace("VJPHiPrimitive", "HiPrim")


@pytest.mark.jax
@pytest.mark.skipif(
    not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12"
)
def test_the_forms_fail_under_jax_012_and_are_errors_there(tmp_path):
    forms = ["an annotated assignment", "setattr", "a class decorator"]
    sources = [HEADER_012 + SILENT_BEFORE[form][0] + FOOTER.format(cls="Mul", x=X, y=Y) for form in forms]
    for form, source, run in zip(forms, sources, probe_many(PY312, sources, tmp_path)):
        assert "takes 3 positional arguments but 5 were given" in run.get("error", ""), (form, run)
        result = migrate_source(source, "m.py", Options(target=(0, 12, 0)))
        assert result.code == source
        assert [f.rule for f in result.report.findings if f.severity == "error"] == ["HJX016"], form
