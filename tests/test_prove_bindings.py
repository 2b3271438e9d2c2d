"""Under a real jax: binding forms the tool once refused, now proven and migrated.

Each module binds a value-returning ``vjp_bwd`` on a primitive in a form that
binds, when Python runs it, exactly the value of a form HJX001 already renames
(a ``def``, or ``vjp_bwd = f``); the tool renames the binding's name and the
result gives jax's gradients under grad and jit, at 0.10 (and at 0.12 with
``HIJAX_PY312``). The refused neighbours are golden cases (``golden/prove_*``).
"""

from __future__ import annotations

import sys

import pytest
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
RULE = """def vjp_bwd(self, res, g):
{i}    x, y = res
{i}    return (g * y, g * x)
"""


def _def_in(head: str, tail: str = "") -> str:
    return f"class Mul(Binary):{FWD}\n    {head}\n        " + RULE.format(i="        ") + tail


def _bound(statement: str) -> str:
    return BWD + f"class Mul(Binary):{FWD}\n    {statement}\n"


# form -> the classes' code after HEADER (each fails unmigrated, but where noted)
PROVEN = {
    "def in a with block": "import contextlib\n" + _def_in("with contextlib.nullcontext():"),
    "def in a for block": _def_in("for _ in range(1):"),
    "def in a try block": _def_in("try:", "    except Exception:\n        raise\n"),
    "switch: vjp_bwd_retval or a value vjp_bwd": "_FAST = True\n"
    + _def_in("if _FAST:", "    else:\n        " + RULE.replace("vjp_bwd", "vjp_bwd_retval").format(i="        ")),
    "an assignment expression": _bound("(vjp_bwd := _mul_bwd)"),
    "a for over one item": _bound("for vjp_bwd in (_mul_bwd,):\n        pass"),
    "a list target": _bound("[vjp_bwd] = [_mul_bwd]"),
    "a tuple target": _bound("_spare, vjp_bwd = _mul_bwd, _mul_bwd"),
    "a starred target": _bound("vjp_bwd, *_rest = (_mul_bwd,)"),
    "a starred target first": _bound("*_rest, vjp_bwd = (1, 2, _mul_bwd)"),
    "a chained assignment": _bound("vjp_bwd = _alias = _mul_bwd"),
    "a subscript of a tuple": BWD + "_RULES = (_mul_bwd,)\n\n\n" + _bound("vjp_bwd = _RULES[0]")[len(BWD) :],
    "a method of a plain class": "class _Rules:\n    def bwd(self, res, g):\n        x, y = res\n"
    + "        return (g * y, g * x)\n\n\n"
    + _bound("vjp_bwd = _Rules.bwd")[len(BWD) :],
    "a walrus reached by a subclass": BWD
    + f"class _Lin(Binary):{FWD}\n    (vjp_bwd := _mul_bwd)\n\n\nclass Mul(_Lin):\n"
    + "    def vjp_bwd(self, res, g):\n        return _Lin.vjp_bwd(self, res, g)\n",
}


def module(classes: str, header: str = HEADER) -> str:
    return header + classes + FOOTER.format(cls="Mul", x=X, y=Y)


def migrated(source: str, target: tuple) -> str:
    result = migrate_source(source, "m.py", Options(target=target))
    assert not [f for f in result.report.findings if f.severity == "error"], result.report.findings
    assert result.code != source
    return result.code


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each form's module as found and as migrated, run by one jax process."""
    sources = [module(code) for code in PROVEN.values()]
    outputs = [migrated(source, (0, 10, 0)) for source in sources]
    found = probe_many(sys.executable, [*sources, *outputs], tmp_path_factory.mktemp("prove"))
    return dict(zip(PROVEN, zip(found[: len(sources)], found[len(sources) :])))


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("form", list(PROVEN))
def test_a_proven_form_migrates_to_jaxs_gradients(form, runs):
    before, after = runs[form]
    assert "takes 3 positional arguments but 5 were given" in before.get("error", ""), before
    assert "error" not in after, after
    assert after["grad"] == [Y, X] and after["jit"] == [Y, X]


@pytest.mark.jax
@pytest.mark.skipif(
    not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12"
)
def test_the_proven_forms_give_jaxs_gradients_at_012(tmp_path):
    header = BATCH_HEADER.replace("VJPHiPrimitive", "HiPrim")
    outputs = [migrated(module(code, header), (0, 12, 0)) for code in PROVEN.values()]
    for form, run in zip(PROVEN, probe_many(PY312, outputs, tmp_path)):
        assert "error" not in run, (form, run)
        assert run["grad"] == [Y, X] and run["jit"] == [Y, X], form
