"""Issue 42, strict flags: no abbreviations, an unknown flag is one line with
the nearest known one (exit 2), and ``--check --diff`` work together as in black."""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_runs import FORKER

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
"""


def cli(*args: str, cwd: Path, stdin: str | None = None):
    return FORKER.module("hijax_migrate", args, cwd, stdin)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "ops.py").write_text(OLD)
    return tmp_path


@pytest.mark.parametrize(
    "word, line",
    [
        ("--inplace", "hijax-migrate: error: unknown option --inplace; did you mean --in-place?"),
        ("--dif", "hijax-migrate: error: unknown option --dif; did you mean --diff?"),
        ("--chek", "hijax-migrate: error: unknown option --chek; did you mean --check?"),
        ("--zzzzzz", "hijax-migrate: error: unknown option --zzzzzz"),
    ],
)
def test_an_unknown_flag_is_one_line_with_a_suggestion(tree, word, line):
    run = cli(word, ".", cwd=tree)
    assert (run.returncode, run.stderr, run.stdout) == (2, line + "\n", "")
    assert (tree / "ops.py").read_text() == OLD


def test_no_abbreviation_is_taken(tree):
    assert cli("--in-pl", "--target-jax", "0.10", ".", cwd=tree).returncode == 2
    assert (tree / "ops.py").read_text() == OLD


def test_check_and_diff_print_the_diff_and_exit_1_as_black(tree):
    run = cli("--check", "--diff", "--target-jax", "0.10", ".", cwd=tree)
    assert run.returncode == 1
    assert run.stdout.startswith("--- a/ops.py\n+++ b/ops.py\n") and "+    def vjp_bwd_retval" in run.stdout
    assert (tree / "ops.py").read_text() == OLD
    (tree / "ops.py").write_text("x = 1\n")
    clean = cli("--check", "--diff", "--target-jax", "0.10", ".", cwd=tree)
    assert (clean.returncode, clean.stdout) == (0, "")


def test_check_and_diff_on_stdin(tree):
    run = cli("--check", "--diff", "--target-jax", "0.10", "-", cwd=tree, stdin=OLD)
    assert run.returncode == 1 and run.stdout.startswith("--- a/-\n+++ b/-\n")


def test_diff_with_a_writing_mode_is_refused(tree):
    run = cli("--diff", "--in-place", ".", cwd=tree)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "not allowed with" in run.stderr
    assert (tree / "ops.py").read_text() == OLD
