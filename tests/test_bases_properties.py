"""Bases in every form (issue 40): generated programs (``base_programs``),
migrated at 0.10 and 0.12 under both strategies.

Without jax: a class that is a primitive when the code runs, with a value
rule, is migrated or refused with an error, never passed over; a gate that
raises at the target is an error; a second run changes nothing. Under jax:
of a fixed sample, no migrated program gives a wrong gradient, and none is
silent (left as written, no error, and failing under jax); the table
(programs, correct, refused, wrong, silent) is printed, and beside it how
many a naive ``sed`` rename gets right. The sample is migrated while its
release's jax batch is made (``bases_checks``, an extra of ``jax_batch``),
and run by that batch's one jax process.
"""

from __future__ import annotations

import json
import random

import pytest
from base_programs import ATOMS, FORMS, Program, build
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jax_batch import HAS_JAX_HERE, JAX_012
from test_golden import options_for

from golden import migrated

STRATEGIES = ("auto", "accum")


def _migrate(program: Program, target: str, strategy: str):
    return migrated(program.code, "prog.py", options_for(["--target-jax", target, "--strategy", strategy]))


def _op(code: str) -> str:
    return code[code.index("\nclass Op") :]


def _errors(result) -> list:
    return [f for f in result.report.findings if f.severity == "error"]


def _check_static(program: Program, target: str, strategy: str) -> None:
    result = _migrate(program, target, strategy)
    errors = _errors(result)
    if program.gate:
        assert any(f.rule == "HJX014" for f in errors), result.report.findings
    value_rule_left = "def vjp_bwd(self, res, g):" in _op(result.code)
    takes_value_arm = program.switch and target == "0.10"
    if program.primitive and value_rule_left and (not program.switch or takes_value_arm):
        assert errors, (target, strategy, program.form, _op(program.code)[:50], result.report.findings)
    if program.switch and target == "0.12":
        assert not [f for f in errors if f.rule == "HJX001"], result.report.findings
    again = migrated(result.code, "prog.py", options_for(["--target-jax", target, "--strategy", strategy]))
    assert again.code == result.code and not again.report.changes


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), target=st.sampled_from(["0.10", "0.12"]))
def test_generated_bases_are_migrated_or_refused(rng, target):
    program = build(rng)
    for strategy in STRATEGIES:
        _check_static(program, target, strategy)


def test_the_generator_reaches_every_form_and_atom_and_the_findings_of_issue_40():
    programs = [build(random.Random(seed)) for seed in range(400)]
    assert {p.form for p in programs} == set(FORMS)
    assert {a for p in programs for a in p.atoms} == set(ATOMS)
    assert any(p.form == "ifexp" and set(p.atoms) == {"P1", "N1"} for p in programs)  # arms of the tree
    assert any("NS.VJPHiPrimitive" in p.atoms for p in programs)  # an import in a class body
    assert any(p.atoms[0] == "Probed" and not p.switch for p in programs)  # a probed base, a value rule
    assert any(p.gate for p in programs) and any(p.switch for p in programs)


def _sample(target: str, count: int = 40) -> list[Program]:
    """``count`` programs jax can run at ``target`` (a fixed sample)."""
    found, seed = [], 0
    while len(found) < count:
        program = build(random.Random(f"{target}-{seed}"))
        seed += 1
        if program.primitive is True and not program.gate and (program.form != "pep695" or target == "0.12"):
            found.append(program)
    return found


def bases_checks(target: str):
    """An extra of the batch of ``target``: the sample migrated under each strategy; each
    program as written, migrated, and renamed by ``sed``, run by the batch (a text given
    twice, as a program is written under both strategies, runs once)."""

    def extra(batch) -> dict:
        programs = _sample(target)
        results = {(i, s): _migrate(p, target, s) for i, p in enumerate(programs) for s in STRATEGIES}
        positions = {}
        for (i, strategy), result in results.items():
            for tag, code in (("after", result.code), ("before", programs[i].code), ("sed", _sed(programs[i].code))):
                positions[i, strategy, tag] = batch.module(code)
        return {("bases", target): (batch, programs, results, positions)}

    return extra


def _table(runs: dict, target: str) -> dict:
    batch, programs, results, positions = runs["bases", target]
    rows = {}
    ran = {key: batch.result(position) for key, position in positions.items()}
    for (i, strategy), result in results.items():
        row = rows.setdefault(strategy, {"programs": 0, "correct": 0, "refused": 0, "wrong": 0, "silent": 0})
        row["programs"] += 1
        after, before = ran[i, strategy, "after"], ran[i, strategy, "before"]
        right = "error" not in after and after["grad"] == after["plain"]
        if _errors(result):
            row["refused"] += 1
        elif result.code == programs[i].code and not right:
            row["silent"] += 1
        else:
            row["correct" if right else "wrong"] += 1
        assert "error" in before or before["grad"] == before["plain"]
        sed, naive = ran[i, strategy, "sed"], rows.setdefault(f"sed ({strategy})", {"programs": 0, "correct": 0})
        naive["programs"] += 1
        naive["correct"] += "error" not in sed and sed["grad"] == sed["plain"]
    print(f"\nbases at {target}:", json.dumps(rows))
    return rows


def _sed(code: str) -> str:
    """What a user does without the tool: ``sed`` over every ``def vjp_bwd(`` and ``.vjp_bwd(``."""
    return code.replace("def vjp_bwd(", "def vjp_bwd_retval(").replace(".vjp_bwd(", ".vjp_bwd_retval(")


def _assert_clean(rows: dict) -> None:
    for name, row in rows.items():
        assert name.startswith("sed") or (row["wrong"] == 0 and row["silent"] == 0), rows


@pytest.mark.skipif(not HAS_JAX_HERE, reason="needs jax")
def test_generated_bases_under_jax_010(jax_010_runs):
    _assert_clean(_table(jax_010_runs, "0.10"))


@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
def test_generated_bases_under_jax_012(jax_012_runs):
    _assert_clean(_table(jax_012_runs, "0.12"))
