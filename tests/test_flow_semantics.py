"""Rules whose control flow decides what they return (tests/flow_cases.py) migrate to
jax's gradients under grad, jit and vmap, or stay as written with an error naming
the line: at jax 0.10.2 (this Python) and 0.12 (HIJAX_PY312), both strategies.
Each release's cases run in one jax process of this module's own."""

from __future__ import annotations

import sys

import pytest
from flow_cases import FLOW_CASES, at_012
from jax_batch import HAS_JAX_HERE, JAX_012, PY312, Batch, migrate_case

PYTHONS = {
    "0.10": sys.executable if HAS_JAX_HERE else None,
    "0.12": PY312 if (JAX_012 or "").startswith("0.12") else None,
}
RUNS = [(c, target, strategy) for c in FLOW_CASES for target, strategy in c.runs]


@pytest.fixture(scope="module")
def flow_runs(tmp_path_factory) -> dict:
    from hijax_migrate.core.versions import parse_version
    from hijax_migrate.rules.context import Options

    checks = {}
    for target, python in PYTHONS.items():
        if python is None:
            continue
        batch = Batch(python, tmp_path_factory.mktemp(f"flow-{target}"))
        for flow, at, strategy in RUNS:
            if at == target:
                case = flow.case if target == "0.10" else at_012(flow.case)
                options = Options(parse_version(target), strategy=strategy)
                checks[flow.name, target, strategy] = (case, migrate_case(batch, case, options))
        batch.run()
    return checks


@pytest.mark.jax
@pytest.mark.parametrize(("flow", "target", "strategy"), RUNS, ids=lambda v: getattr(v, "name", v))
def test_control_flow_migrates_to_jax_gradients_or_is_refused(flow, target, strategy, flow_runs):
    if PYTHONS[target] is None:
        pytest.skip(f"no jax {target} here (0.12: HIJAX_PY312 naming a Python 3.12 with jax 0.12)")
    case, check = flow_runs[flow.name, target, strategy]
    migrated, before, after = check.results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    if (target, strategy) in flow.refused:
        # the rule left as written (at 0.12 the base is renamed), with an error naming its line
        assert case.body in migrated.code and not [c for c in migrated.report.changes if c.rule == "HJX001"]
        errors = [f for f in migrated.report.findings if f.severity == "error" and f.rule == "HJX001"]
        assert errors and all(f.line > 0 for f in errors), migrated.report.findings
        return
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    for key in ("grad", "jit", "vmap", "grad_vmap"):
        if key in after:
            assert after[key] == case.expected, (key, migrated.code)
