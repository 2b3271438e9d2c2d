"""``--verify`` on a project whose tests run real jax: the migration proved
(fixed, unchanged) under jax 0.12, and a migration that changes a gradient
caught (broken) with nothing written.

The jax 0.12 tests need HIJAX_PY312 (a Python 3.12 with jax 0.12; its
virtualenv gets a view of this process's pytest, see verify_helpers); the
broken-on-purpose test needs jax 0.10 here (the test extras install it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from verify_helpers import JAX_PROJECT, git_state, project, python_with_pytest, tool, tree_bytes

PY312 = os.environ.get("HIJAX_PY312", "")
needs_012 = pytest.mark.skipif(not PY312, reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12")
needs_010 = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax 0.10 in this environment")
TESTS = "-m pytest -q -p no:cacheprovider -p no:randomly --continue-on-collection-errors tests"


@pytest.fixture(scope="module")
def python_012(tmp_path_factory) -> Path:
    return python_with_pytest(PY312, tmp_path_factory.mktemp("venv012") / "venv")


@pytest.fixture
def jax_project(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    (tmp_path / "tmp").mkdir()
    return project(tmp_path / "proj", JAX_PROJECT)


def verdicts(doc: dict) -> dict[str, str]:
    return {row["test"]: row["verdict"] for row in doc["verify"]["tests"]}


@needs_012
@needs_010
def test_two_venvs_the_migration_before_the_upgrade_is_proved_and_written(jax_project, python_012):
    """Before: the project's code under jax 0.10 (this interpreter). After:
    the migrated code under jax 0.12. The 0.10 code's tests still pass, the
    0.8.0-style rule that failed is fixed, and --in-place writes."""
    state = git_state(jax_project)
    run = tool(
        "--target-jax",
        "0.12",
        "--no-cache",
        "--verify",
        f"python {TESTS}",
        "--verify-python",
        str(python_012),
        "--in-place",
        "--output-format",
        "json",
        ".",
        cwd=jax_project,
        tmp=jax_project.parent / "tmp",
        env={"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert verdicts(doc) == {
        "tests/test_gated.py::test_grad": "fixed",
        "tests/test_ops.py::test_grad": "unchanged",
        "tests/test_ops.py::test_value": "unchanged",
        "tests/test_util.py::test_double": "unchanged",
    }
    assert doc["verify"]["written"] and doc["migration"]["summary"]["files_written"] == 2
    assert "HiPrim" in (jax_project / "pkg" / "ops.py").read_text()
    assert git_state(jax_project)[1:] == state[1:]  # stashes, index, worktrees: as they were
    assert os.listdir(jax_project.parent / "tmp") == []


@needs_012
def test_upgraded_jax_fails_and_the_migration_fixes_it(jax_project, python_012):
    """Both runs under jax 0.12: the code as it is fails (an import error; the
    TypeError of a rule that returns its cotangents), migrated it passes."""
    venv = {"PATH": f"{python_012.parent}:{os.environ['PATH']}"}
    run = tool(
        "--target-jax",
        "0.12",
        "--no-cache",
        "--verify",
        f"python {TESTS}",
        "--keep-verify-dir",
        "--output-format",
        "json",
        ".",
        cwd=jax_project,
        tmp=jax_project.parent / "tmp",
        env=venv,
    )
    assert run.returncode == 0, run.stderr
    assert set(verdicts(json.loads(run.stdout)).items()) == {
        ("tests/test_gated.py::test_grad", "fixed"),
        ("tests/test_ops.py::test_grad", "fixed"),
        ("tests/test_ops.py::test_value", "fixed"),
        ("tests/test_util.py::test_double", "unchanged"),
    }
    kept = next((jax_project.parent / "tmp").iterdir())
    assert "should return None or a dict of backward-pass log entries" in (kept / "before.log").read_text()
    assert "VJPHiPrimitive" in (jax_project / "pkg" / "ops.py").read_text()  # without --in-place: not written


def _doubled_gradient(real):
    """Test-only: the real migration of the copy, then a rewrite that no rule
    of the tool makes, doubling ``Scale``'s cotangent, as a wrong rule would."""

    def migrate_copy(args, copy):
        migrated = real(args, copy)
        ops, original = copy.tree / "pkg" / "ops.py", copy.root / "pkg" / "ops.py"
        ops.write_text(ops.read_text().replace("return (3.0 * g,)", "return (6.0 * g,)"))
        migrated.paths["pkg/ops.py"] = original
        migrated.old[original], migrated.new[original] = original.read_bytes(), ops.read_bytes()
        return migrated

    return migrate_copy


@needs_010
def test_a_migration_that_changes_a_gradient_is_broken_and_nothing_is_written(jax_project, monkeypatch, capsys):
    """Under jax 0.10 on both sides (a target of 0.10 migrates ``pkg/gated.py``
    only); the injected rewrite changes ``Scale``'s gradient."""
    from hijax_migrate.cli import main
    from hijax_migrate.verify import flow

    monkeypatch.setattr(flow, "migrate_copy", _doubled_gradient(flow.migrate_copy))
    monkeypatch.chdir(jax_project)
    monkeypatch.setenv("TMPDIR", str(jax_project.parent / "tmp"))
    files, state = tree_bytes(jax_project), git_state(jax_project)
    code = main(["--target-jax", "0.10", "--no-cache", "--verify", f"{sys.executable} {TESTS}", "--in-place", "."])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "broken        tests/test_ops.py::test_grad" in out and "fixed         tests/test_gated.py::test_grad" in out
    assert "verified: 1 broken, 1 fixed, 0 still failing, 0 not compared, 2 unchanged" in out
    assert tree_bytes(jax_project) == files and git_state(jax_project) == state
