"""A run over part of a tree (files named one by one, or chosen by git) takes the
other files of their classes' families too: a family is never left half-migrated."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_cli import cli

BASE = """from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    def vjp_bwd(self, res, g):
        return (2 * g,)
"""
SUB = """from base import Base


class Sub(Base):
    def vjp_bwd(self, res, g):
        return super().vjp_bwd(res, g)
"""
UNRELATED = """class Quant:
    def vjp_bwd(self, res, g):
        return (g,)
"""


@pytest.fixture
def family(tmp_path: Path) -> Path:
    for name, text in {"base.py": BASE, "sub.py": SUB, "quant.py": UNRELATED}.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _migrated(root: Path) -> dict[str, bool]:
    return {name: "vjp_bwd_retval" in (root / name).read_text() for name in ("base.py", "sub.py", "quant.py")}


@pytest.mark.parametrize("named, other", [("base.py", "sub.py"), ("sub.py", "base.py")])
def test_a_file_named_alone_brings_its_family(family, named, other):
    result = cli("--in-place", "--target-jax", "0.10", named, cwd=family)
    assert result.returncode == 0, result.stderr
    assert f"{other}:" in result.stderr and "taken into the run too" in result.stderr
    assert _migrated(family) == {"base.py": True, "sub.py": True, "quant.py": False}
    assert "super().vjp_bwd_retval(res, g)" in (family / "sub.py").read_text()


def test_files_chosen_by_git_bring_their_family(family):
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=family, check=True)
    subprocess.run([*git, "add", "."], cwd=family, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=family, check=True)
    (family / "base.py").write_text(BASE + "# touched\n")
    result = cli("--check", "--changed-since", "HEAD", "--target-jax", "0.10", ".", cwd=family)
    assert result.returncode == 1
    assert sorted(result.stdout.split()) == ["base.py", "sub.py"]
    assert "note: sub.py:4: Sub: taken into the run too: it is a subclass of Base in base.py" in result.stderr


def test_whole_folders_and_excluded_files_take_nothing_more(family):
    result = cli("--check", "--target-jax", "0.10", ".", cwd=family)
    assert "taken into the run" not in result.stderr
    excluded = cli("--check", "--target-jax", "0.10", "--exclude", "sub.py", "base.py", cwd=family)
    assert "taken into the run" not in excluded.stderr and excluded.stdout.split() == ["base.py"]


def test_a_staged_base_turned_primitive_brings_its_unstaged_subclass(family):
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    (family / "base.py").write_text("class Base:\n    pass\n")
    subprocess.run(["git", "init", "-q"], cwd=family, check=True)
    subprocess.run([*git, "add", "."], cwd=family, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=family, check=True)
    (family / "base.py").write_text(BASE.replace("    def vjp_bwd(self, res, g):\n        return (2 * g,)\n", ""))
    subprocess.run([*git, "add", "base.py"], cwd=family, check=True)
    result = cli("--check", "--staged", "--target-jax", "0.10", ".", cwd=family)
    assert result.returncode == 1 and result.stdout.split() == ["sub.py"], result.stderr
