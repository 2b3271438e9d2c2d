"""Half-ports whose paths are known migrate to the right gradients under jax
0.12 too (the same cases run at 0.10.2 with tests/test_semantics.py's proven
cases); an accumulator rule that returns its logs, wherever they come from,
is left as written and gives jax's gradients."""

from __future__ import annotations

import dataclasses

import pytest
from jax_batch import JAX_012, PY312, STRATEGIES, batch_of
from semantic_cases import FOOTER_012, FWD, HEADER, PATH_CASES, SemanticCase, X, Y

needs_012 = pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"),
                               reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12")

# jax's own RematTraced.vjp_bwd, in small: the accumulators go to a call, its logs come back
LOGS_CASE = SemanticCase("accum_rule_returns_logs_from_a_call", f'''
def _backward(x, y, g):
    def with_refs(x_acc, y_acc):
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return None, {{"g": g}}
    return with_refs


class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, *arg_accums):
        _, logs = _backward(*res, g)(*arg_accums)
        return logs
''', [Y, X], header=HEADER.replace("VJPHiPrimitive", "HiPrim"), footer=FOOTER_012)
# vmap at 0.12 needs a `batch` rule, which no migration writes: grad and jit only
CASES_012 = [dataclasses.replace(case, footer=FOOTER_012) for case in PATH_CASES]


def hjx001(findings) -> list:
    return [f for f in findings if f.rule == "HJX001"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    return batch_of(PY312, "0.12", tmp_path_factory.mktemp("paths-0.12"), {"logs": [LOGS_CASE]}, {}, CASES_012)


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", CASES_012, ids=lambda c: c.name)
def test_known_paths_migrate_under_jax_012(case, strategy, runs):
    migrated, before, after = runs["proven", case.name, strategy].results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    if strategy in case.refused:  # the rule left as it was (the base is renamed), with an error naming the line
        assert case.body in migrated.code and not hjx001(migrated.report.changes)
        assert [f.severity for f in hjx001(migrated.report.findings)] == ["error"]
        assert all(f.line > 0 for f in migrated.report.findings)
        return
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    assert after["grad"] == after["jit"] == case.expected


@pytest.mark.jax
@needs_012
def test_an_accumulator_rule_returning_logs_is_left_as_written(runs):
    migrated, before, after = runs["logs", LOGS_CASE.name].results()
    assert "error" not in before and before["grad"] == [Y, X], before
    assert migrated.code == LOGS_CASE.source() and not migrated.report.changes
    rule = LOGS_CASE.source().splitlines().index("    def vjp_bwd(self, res, g, *arg_accums):") + 1
    found = hjx001(migrated.report.findings)
    assert [(f.severity, f.line) for f in found] == [("note", rule)], found
    assert "read as backward-pass logs" in found[0].message
    assert after == before
