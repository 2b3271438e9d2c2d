"""Errors (code that will not work on the target) fail a check even when
nothing could be rewritten; notes do not."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.core.model import ERROR, NOTE, Finding
from hijax_migrate.git.hooks import _verdict
from hijax_migrate.output.report import Outcome

OLD_API = """from jax.experimental.hijax import HiPrimitive


class Old(HiPrimitive):
    def abstract_eval(self, x):
        return x, set()
"""
# A value-returning vjp_bwd on a class whose base cannot be decided: a note.
UNDECIDED = """from somewhere import Base


class Op(Base):
    def vjp_bwd(self, res, g):
        return (g,)
"""


def cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m hijax_migrate ARGS``, in a fresh process (``fresh_runs``)."""
    return FORKER.module("hijax_migrate", args, cwd, stdin)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "old.py").write_text(OLD_API)
    (tmp_path / "undecided.py").write_text(UNDECIDED)
    return tmp_path


def test_check_fails_on_an_error_with_nothing_to_rewrite(tree):
    run = cli("--check", "old.py", "undecided.py", "--target-jax", "0.12", cwd=tree)
    assert run.returncode == 1
    assert run.stdout.splitlines() == ["old.py"]  # files with errors are listed; notes are not
    assert "error: old.py:4: HJX008 Old: subclasses `HiPrimitive`" in run.stderr
    assert "note: undecided.py:5: HJX001 Op: a base class comes from outside" in run.stderr
    assert "1 error left to fix by hand, 1 note" in run.stderr


def test_dry_run_and_stdin_fail_on_an_error(tree):
    assert cli("old.py", "--target-jax", "0.12", cwd=tree).returncode == 1
    piped = cli("--check", "-", "--target-jax", "0.12", cwd=tree, stdin=OLD_API)
    assert piped.returncode == 1 and piped.stdout == "-\n"  # the file's name, as for a file on disk


def test_notes_alone_pass(tree):
    assert cli("--check", "undecided.py", "--target-jax", "0.12", cwd=tree).returncode == 0
    # before its release the old API works: no error
    assert cli("--check", "old.py", "--target-jax", "0.11.1", cwd=tree).returncode == 0


def test_in_place_reports_errors_and_exits_1_while_any_is_left(tree):
    """As ruff's --fix: exit 1 while something is left to fix by hand."""
    run = cli("--in-place", "old.py", "--target-jax", "0.12", cwd=tree)
    assert run.returncode == 1 and "error: old.py:4: HJX008" in run.stderr
    assert (tree / "old.py").read_text() == OLD_API
    assert cli("--in-place", "--exit-zero", "old.py", "--target-jax", "0.12", cwd=tree).returncode == 0


def test_json_carries_severity(tree):
    run = cli("--output-format", "json", "old.py", "undecided.py", "--target-jax", "0.12", cwd=tree)
    doc = json.loads(run.stdout)
    assert [(w["file"], w["rule"], w["severity"]) for w in doc["warnings"]] == [
        ("old.py", "HJX008", "error"),
        ("undecided.py", "HJX001", "note"),
    ]
    assert doc["summary"]["warnings"] == 2 and doc["summary"]["warning_errors"] == 1


def test_github_errors_and_warnings(tree):
    run = cli("--output-format", "github", "old.py", "undecided.py", "--target-jax", "0.12", cwd=tree)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("::error file=old.py,line=4,title=HJX008 old-hiprimitive::Old: subclasses")
    assert lines[1].startswith(
        "::warning file=undecided.py,line=5,title=HJX001 bwd-returns-cotangents::Op: a base class"
    )
    assert run.returncode == 1


def test_hook_blocks_on_errors_only(capsys):
    def outcome(severity: str) -> Outcome:
        return Outcome("a.py", findings=[Finding("a.py", 3, "Op: port it", "HJX008", severity=severity)])

    assert _verdict("pre-commit", [("index", outcome(NOTE))]) == 0
    assert _verdict("pre-commit", [("index", outcome(ERROR))]) == 1
    assert "error: a.py:3: HJX008 Op: port it" in capsys.readouterr().err
