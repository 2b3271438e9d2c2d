"""Half-ports whose paths are known migrate to the right gradients under jax
0.12 too (the same cases run at 0.10.2 with tests/test_semantics.py's proven
cases); an accumulator rule that returns its logs, wherever they come from,
is left as written and gives jax's gradients."""

from __future__ import annotations

import pytest
from jax_batch import JAX_012, STRATEGIES
from semantic_cases import LOGS_CASE, X, Y
from semantic_cases import PATH_CASES_012 as CASES_012

needs_012 = pytest.mark.skipif(
    not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12"
)


def hjx001(findings) -> list:
    return [f for f in findings if f.rule == "HJX001"]


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", CASES_012, ids=lambda c: c.name)
def test_known_paths_migrate_under_jax_012(case, strategy, jax_012_runs):
    migrated, before, after = jax_012_runs["proven", case.name, strategy].results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    if strategy in case.refused:  # the rule left as it was (the base is renamed), with an error naming the line
        assert case.body in migrated.code and not hjx001(migrated.report.changes)
        refusals = [f for f in migrated.report.findings if f.rule in ("HJX001", "HJX016")]  # HJX016: a form
        assert [f.severity for f in refusals] == ["error"]  # no rule follows (a generator's ``def vjp_bwd``)
        assert all(f.line > 0 for f in migrated.report.findings)
        return
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    assert after["grad"] == after["jit"] == case.expected


@pytest.mark.jax
@needs_012
def test_an_accumulator_rule_returning_logs_is_left_as_written(jax_012_runs):
    migrated, before, after = jax_012_runs["logs", LOGS_CASE.name].results()
    assert "error" not in before and before["grad"] == [Y, X], before
    assert migrated.code == LOGS_CASE.source() and not migrated.report.changes
    rule = LOGS_CASE.source().splitlines().index("    def vjp_bwd(self, res, g, *arg_accums):") + 1
    found = hjx001(migrated.report.findings)
    assert [(f.severity, f.line) for f in found] == [("note", rule)], found
    assert "read as backward-pass logs" in found[0].message
    assert after == before
