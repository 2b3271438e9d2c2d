"""[tool.hijax-migrate] in pyproject.toml: found, read, and beaten by flags."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
"""
# a primitive whose base the tool can only know from the configuration
CUSTOM = """from vendor_lib import PrimBase


class Mul(PrimBase):
    def vjp_bwd(self, res, g):
        return (g, g)
"""


def cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m hijax_migrate ARGS``, in a fresh process (``fresh_runs``)."""
    return FORKER.module("hijax_migrate", args, cwd, stdin)


def project(root: Path, table: str, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.hijax-migrate]\n{table}")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_target_and_strategy_from_the_file(tmp_path):
    project(tmp_path, 'target-jax = "0.10"\nstrategy = "accum"\n', {"src/ops.py": OLD})
    run = cli("--check", "src", cwd=tmp_path)
    assert run.returncode == 1 and "target: jax 0.10.0 (target-jax in [tool.hijax-migrate] of" in run.stderr
    diff = cli("src", cwd=tmp_path).stdout
    assert "g_acc" in diff or ".accum(" in diff  # the accumulator strategy, not a rename


def test_flags_win_over_the_file(tmp_path):
    project(tmp_path, 'target-jax = "0.10"\nstrategy = "accum"\n', {"src/ops.py": OLD})
    run = cli("--strategy", "rename", "--target-jax", "0.9", "src", cwd=tmp_path)
    assert "+    def vjp_bwd_retval(self, res, g):" in run.stdout
    assert "target: jax 0.9.0 (--target-jax)" in run.stderr


def test_bases_from_the_file(tmp_path):
    project(tmp_path, 'target-jax = "0.10"\nbase = ["vendor_lib.PrimBase"]\n', {"ops.py": CUSTOM})
    assert cli("--check", "ops.py", cwd=tmp_path).stdout.split() == ["ops.py"]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert cli("--check", "ops.py", "--target-jax", "0.10", cwd=tmp_path).stdout == ""


def test_found_from_the_first_path_upwards_and_excludes_are_relative_to_its_folder(tmp_path):
    root = project(
        tmp_path / "proj",
        'target-jax = "0.10"\nexclude = ["/pkg/gen/"]\n',
        {"pkg/ops.py": OLD, "pkg/gen/ops.py": OLD, "other/pkg/gen/ops.py": OLD},
    )
    run = cli("--check", "proj/pkg", "proj/other", cwd=tmp_path)  # run from outside the project
    assert run.stdout.split() == ["proj/other/pkg/gen/ops.py", "proj/pkg/ops.py"]
    inside = cli("--check", ".", cwd=root / "pkg")  # run from below its root
    assert inside.stdout.split() == ["ops.py"]


def test_extend_exclude_adds_to_exclude_from_file_or_flag(tmp_path):
    project(
        tmp_path,
        'target-jax = "0.10"\nexclude = ["a/"]\nextend-exclude = ["b/"]\n',
        {"a/ops.py": OLD, "b/ops.py": OLD, "c/ops.py": OLD},
    )
    assert cli("--check", ".", cwd=tmp_path).stdout.split() == ["c/ops.py"]
    flagged = cli("--check", "--exclude", "c/", ".", cwd=tmp_path)  # replaces a/, b/ still added
    assert flagged.stdout.split() == ["a/ops.py"]


def test_include_from_the_file(tmp_path):
    project(tmp_path, 'target-jax = "0.10"\ninclude = ["src/"]\n', {"src/ops.py": OLD, "tools/ops.py": OLD})
    assert cli("--check", ".", cwd=tmp_path).stdout.split() == ["src/ops.py"]


def test_the_search_stops_at_the_repository_top(tmp_path):
    project(tmp_path, 'target-jax = "0.9"\n', {})
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "ops.py").write_text(OLD)
    run = cli("--check", "ops.py", "--output-format", "json", cwd=repo)
    assert "[tool.hijax-migrate]" not in json.loads(run.stdout)["summary"]["target"]


def test_config_flag_names_the_file(tmp_path):
    project(tmp_path / "settings", 'target-jax = "0.9"\n', {})
    (tmp_path / "ops.py").write_text(OLD)
    run = cli("--check", "--config", "settings/pyproject.toml", "ops.py", cwd=tmp_path)
    assert "target: jax 0.9.0 (target-jax in [tool.hijax-migrate] of settings/pyproject.toml)" in run.stderr
    missing = cli("--check", "--config", "nowhere.toml", "ops.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nowhere.toml" in missing.stderr


@pytest.mark.parametrize(
    "table, complaint",
    [
        ('targt-jax = "0.10"\n', "unknown key 'targt-jax'"),
        ("exclude = [1]\n", "exclude in [tool.hijax-migrate]"),
        ('black = "yes"\n', "must be true or false"),
        ('strategy = "sideways"\n', "must be one of auto, rename, accum"),
        ('target-jax = "banana"\n', "banana"),
        ("exclude = [\n", "cannot read"),
    ],
)
def test_a_bad_file_is_a_usage_error_naming_it(tmp_path, table, complaint):
    project(tmp_path, table, {"ops.py": OLD})
    run = cli("--check", "ops.py", cwd=tmp_path)
    assert run.returncode == 2 and complaint in run.stderr and "pyproject.toml" in run.stderr


def test_black_from_the_file(tmp_path):
    pytest.importorskip("black")
    project(
        tmp_path,
        'target-jax = "0.10"\nstrategy = "accum"\nblack = true\n',
        {"ops.py": OLD.replace("return (g, g)", "return (g*2, g)")},
    )
    assert cli("--in-place", "-q", "ops.py", cwd=tmp_path).returncode == 0
    out = (tmp_path / "ops.py").read_text()
    assert "g * 2" in out and "g*2" not in out  # the changed line, formatted by black
