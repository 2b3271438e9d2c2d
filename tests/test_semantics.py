"""Migrated code runs under a real jax and gives the known gradients.

Each case fails under jax before migration and is right after it, under
``grad``, ``jit(grad)`` and ``vmap(grad)``. The jax 0.10.2 cases run with the
Python running the tests (CI installs jax there); the jax 0.12 cases need
a Python 3.12 with jax 0.12 named by HIJAX_PY312 (``.ci/run`` sets it up).
Each release's cases (and test_families') run in one jax process, once a
session (``jax_batch.py``); each test checks its own case's results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jax_batch import HAS_JAX_HERE, JAX_012, PROBE, PY312, STRATEGIES, Batch, BatchFailed
from semantic_cases import CORE_CASES, JAX_012_CASES, PROVEN_CASES

__all__ = ["HAS_JAX_HERE", "JAX_012", "PY312", "PROBE", "check_case", "probe_many"]


def check_case(check, case) -> None:
    """A case's batched runs: broken before the migration, right after it."""
    migrated, before, after = check.results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    for key in ("grad", "jit", "vmap", "grad_vmap"):
        if key in after:
            assert after[key] == case.expected, key  # small integers: exact in float32


if os.environ.get("CI") and sys.version_info < (3, 12) and not HAS_JAX_HERE:
    raise RuntimeError("CI must run the jax 0.10.2 semantic tests: jax is not installed")


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("case", CORE_CASES, ids=lambda c: c.name)
def test_core_under_jax_010(case, jax_010_runs):
    check_case(jax_010_runs["core", case.name], case)


def probe_many(python: str, sources: list[str], folder: Path) -> list[dict]:
    """Gradients of many modules, from one process (jax starts once)."""
    paths = []
    for i, source in enumerate(sources):
        paths.append(folder / f"m{i}.py")
        paths[-1].write_text(source)
    run = subprocess.run([python, str(PROBE), *map(str, paths)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.strip().splitlines()]


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", PROVEN_CASES, ids=lambda c: c.name)
def test_proven_or_refused_under_jax_010(case, strategy, jax_010_runs):
    migrated, before, after = jax_010_runs["proven", case.name, strategy].results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    if strategy in case.refused:  # left as it was, with a warning naming the line
        assert migrated.code == case.source() and not migrated.report.changes
        assert migrated.report.findings and all(f.line > 0 for f in migrated.report.findings)
        return
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    for key in ("grad", "jit", "vmap", "grad_vmap"):
        if key in after:
            assert after[key] == case.expected, key  # small integers: exact in float32


@pytest.mark.jax
@pytest.mark.skipif(
    not (JAX_012 or "").startswith("0.12"),
    reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12 (jax 0.11+ needs Python "
    "3.12; .ci/run sets it up where the machine has Python 3.12)",
)
@pytest.mark.parametrize("case", JAX_012_CASES, ids=lambda c: c.name)
def test_old_eras_under_jax_012(case, jax_012_runs):
    check_case(jax_012_runs["core", case.name], case)


def test_a_batch_process_that_dies_fails_every_case_in_it(tmp_path):
    """A crash of the one jax process is no pass: each case reading it fails, saying so."""
    batch = Batch(sys.executable, tmp_path)
    dies, after = batch.module("import os\nos._exit(3)\n"), batch.module("X = 1\n")
    batch.run()
    for position in (dies, after):
        with pytest.raises(BatchFailed, match=r"exited with \d+ after 0 of 2 modules"):
            batch.result(position)
