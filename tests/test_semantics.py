"""Migrated code runs under a real jax and gives the known gradients.

Each case fails under jax before migration and is right after it, under
``grad``, ``jit(grad)`` and ``vmap(grad)``. The jax 0.10.2 cases run with the
Python running the tests (CI installs jax there); the jax 0.12 cases need
a Python 3.12 with jax 0.12 named by HIJAX_PY312 (``.ci/run`` sets it up).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from semantic_cases import CORE_CASES, JAX_012_CASES, PROVEN_CASES

from hijax_migrate.core.versions import parse_version
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

PROBE = Path(__file__).with_name("jax_probe.py")


def jax_version(python: str) -> str | None:
    code = "from importlib.metadata import version; print(version('jax'))"
    run = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else None


def probe(python: str, source: str, tmp_path: Path, name: str) -> dict:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    run = subprocess.run([python, str(PROBE), str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def check_case(case, python: str, target: str, tmp_path: Path) -> None:
    source = case.source()
    before = probe(python, source, tmp_path, "before")
    assert "error" in before, f"the unmigrated code already works: {before}"
    options = Options(parse_version(target), **case.flags)
    migrated = migrate_source(source, f"{case.name}.py", options)
    assert migrated.report.changes, migrated.report
    after = probe(python, migrated.code, tmp_path, "after")
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    for key in ("grad", "jit", "vmap"):
        if key in after:
            assert after[key] == case.expected, key  # small integers: exact in float32


HAS_JAX_HERE = jax_version(sys.executable) is not None
if os.environ.get("CI") and sys.version_info < (3, 12) and not HAS_JAX_HERE:
    raise RuntimeError("CI must run the jax 0.10.2 semantic tests: jax is not installed")


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("case", CORE_CASES, ids=lambda c: c.name)
def test_core_under_jax_010(case, tmp_path):
    check_case(case, sys.executable, "0.10", tmp_path)


def probe_many(python: str, sources: list[str], folder: Path) -> list[dict]:
    """Gradients of many modules, from one process (jax starts once)."""
    paths = []
    for i, source in enumerate(sources):
        paths.append(folder / f"m{i}.py")
        paths[-1].write_text(source)
    run = subprocess.run([python, str(PROBE), *map(str, paths)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.strip().splitlines()]


STRATEGIES = ("auto", "accum")


@pytest.fixture(scope="module")
def proven_runs(tmp_path_factory) -> dict:
    """(case name, strategy): (migration, run before, run after), all from one jax process."""
    migrations = {(case.name, strategy): migrate_source(case.source(), f"{case.name}.py",
                                                         Options(parse_version("0.10"), strategy=strategy))
                  for case in PROVEN_CASES for strategy in STRATEGIES}
    sources = [case.source() for case in PROVEN_CASES] + [r.code for r in migrations.values()]
    runs = probe_many(sys.executable, sources, tmp_path_factory.mktemp("proven"))
    before = dict(zip((case.name for case in PROVEN_CASES), runs))
    return {key: (result, before[key[0]], after)
            for (key, result), after in zip(migrations.items(), runs[len(PROVEN_CASES):])}


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", PROVEN_CASES, ids=lambda c: c.name)
def test_proven_or_refused_under_jax_010(case, strategy, proven_runs):
    migrated, before, after = proven_runs[case.name, strategy]
    assert "error" in before, f"the unmigrated code already works: {before}"
    if strategy in case.refused:  # left as it was, with a warning naming the line
        assert migrated.code == case.source() and not migrated.report.changes
        assert migrated.report.findings and all(f.line > 0 for f in migrated.report.findings)
        return
    assert migrated.report.changes, migrated.report
    assert "error" not in after, f"{after['error']}\n{migrated.code}"
    for key in ("grad", "jit", "vmap"):
        if key in after:
            assert after[key] == case.expected, key  # small integers: exact in float32


PY312 = os.environ.get("HIJAX_PY312", "")
JAX_012 = jax_version(PY312) if PY312 else None


@pytest.mark.jax
@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"),
                    reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12 (jax 0.11+ needs Python "
                           "3.12; .ci/run sets it up where the machine has Python 3.12)")
@pytest.mark.parametrize("case", JAX_012_CASES, ids=lambda c: c.name)
def test_old_eras_under_jax_012(case, tmp_path):
    check_case(case, PY312, "0.12", tmp_path)
