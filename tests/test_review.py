"""--interactive, driven through real processes with answers on stdin."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER

TWO = """\
from jax.experimental.hijax import VJPHiPrimitive


class A(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, res, g):
        return (g,)


class B(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, res, g):
        return (2 * g,)
"""
ONLY_A = TWO.replace(
    "def vjp_bwd(self, res, g):\n        return (g,)", "def vjp_bwd_retval(self, res, g):\n        return (g,)"
)
BOTH = ONLY_A.replace(
    "def vjp_bwd(self, res, g):\n        return (2 * g,)", "def vjp_bwd_retval(self, res, g):\n        return (2 * g,)"
)


def review(root: Path, answers: str, *flags: str) -> subprocess.CompletedProcess:
    """The review, answered from stdin, in a fresh process (``fresh_runs``)."""
    return FORKER.module("hijax_migrate", ["--interactive", "--target-jax", "0.10", *flags, "."], root, answers)


@pytest.fixture
def tree(tmp_path) -> Path:
    (tmp_path / "a.py").write_text(TWO)
    (tmp_path / "b.py").write_text(TWO)
    return tmp_path


def test_only_accepted_changes_are_written(tree):
    done = review(tree, "n\ny\ny\nn\n")
    assert done.returncode == 0, done.stderr
    assert (tree / "a.py").read_text() == TWO.replace(
        "def vjp_bwd(self, res, g):\n        return (2 * g,)",
        "def vjp_bwd_retval(self, res, g):\n        return (2 * g,)",
    )
    assert (tree / "b.py").read_text() == ONLY_A
    assert done.stdout.count("Apply this change") == 4
    assert "(1/2) a.py: A: renamed `vjp_bwd` to `vjp_bwd_retval`" in done.stdout
    assert "-    def vjp_bwd(self, res, g):\n+    def vjp_bwd_retval(self, res, g):" in done.stdout


def test_all_in_file_then_skip_rest_of_file(tree):
    done = review(tree, "a\nd\n")
    assert done.returncode == 0
    assert (tree / "a.py").read_text() == BOTH and (tree / "b.py").read_text() == TWO
    assert done.stdout.count("Apply this change") == 2


def test_quit_keeps_what_was_applied_and_stops(tree):
    done = review(tree, "y\nq\n")
    assert (tree / "a.py").read_text() == ONLY_A and (tree / "b.py").read_text() == TWO
    assert done.stdout.count("Apply this change") == 2


def test_end_of_input_quits_cleanly(tree):
    done = review(tree, "")
    assert done.returncode == 0 and (tree / "a.py").read_text() == TWO


def test_help_then_asks_again(tree):
    done = review(tree, "?\nn\nn\nn\nn\n")
    assert "a - apply this change and every later one in this file" in done.stdout
    assert done.stdout.count("Apply this change") == 5


def test_partial_result_is_valid_and_a_second_review_only_offers_the_rest(tree):
    review(tree, "y\nn\ny\nn\n")
    for name in ("a.py", "b.py"):
        compile((tree / name).read_text(), name, "exec")
    again = review(tree, "n\nn\n")
    assert again.stdout.count("Apply this change") == 2  # only B, in each file
    assert "B: renamed" in again.stdout and "A: renamed" not in again.stdout
    assert (tree / "a.py").read_text() == ONLY_A


def test_module_wide_renames_are_a_change_of_their_own(tmp_path):
    (tmp_path / "ops.py").write_text(TWO)
    done = FORKER.module("hijax_migrate", ["--interactive", "--target-jax", "0.12", "."], tmp_path, "y\nn\nn\n")
    assert "module-wide renames" in done.stdout
    assert (tmp_path / "ops.py").read_text() == TWO.replace("VJPHiPrimitive", "HiPrim")


@pytest.mark.parametrize("flags", [["--output-format", "json"], ["--check"]])
def test_interactive_refuses_machine_modes(tree, flags):
    done = review(tree, "", *flags)
    assert done.returncode == 2


FAMILY = TWO.replace("class B(VJPHiPrimitive):", "class B(A):")


def test_a_family_is_offered_as_one_change(tmp_path):
    (tmp_path / "f.py").write_text(FAMILY)
    done = review(tmp_path, "y\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Apply this change") == 1
    assert "(1/1) f.py: A, B: " in done.stdout
    assert "vjp_bwd(" not in (tmp_path / "f.py").read_text()


MIXIN = """\
from jax.experimental.hijax import VJPHiPrimitive


class GradMixin:
    def vjp_bwd(self, res, g):
        return (g,)


class Op(GradMixin, VJPHiPrimitive):
    pass


class Other(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (2 * g,)
"""


def test_a_rejected_mixin_family_is_not_written(tmp_path):
    (tmp_path / "m.py").write_text(MIXIN)
    done = review(tmp_path, "n\ny\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Apply this change") == 2
    assert "(1/2) m.py: GradMixin: " in done.stdout
    assert (tmp_path / "m.py").read_text() == MIXIN.replace(
        "def vjp_bwd(self, res, g):\n        return (2 * g,)",
        "def vjp_bwd_retval(self, res, g):\n        return (2 * g,)",
    )
