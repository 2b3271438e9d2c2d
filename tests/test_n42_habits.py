"""Issue 42, ruff's habits: --statistics, --show-fixes, --extend-select,
--add-noqa, unused suppressions (HJX100, as ruff's RUF100), --show-settings, -v."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fresh_runs import FORKER

SOURCE = """from jax.experimental.hijax import VJPHiPrimitive, HiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)


class A(HiPrimitive):
    pass


class B(HiPrimitive):  # an old primitive
    pass
"""


def cli(*args: str, cwd: Path):
    return FORKER.module("hijax_migrate", args, cwd)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "ops.py").write_text(SOURCE)
    return tmp_path


def test_statistics_count_each_rule_and_kind(tree):
    run = cli("--statistics", "--target-jax", "0.12", ".", cwd=tree)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "    2\tHJX003\t[*] hiprim-base (change)",
        "    2\tHJX008\t[ ] old-hiprimitive (error)",
        "    1\tHJX001\t[*] bwd-returns-cotangents (change)",
    ]
    assert "error:" not in run.stderr  # the counts instead of each finding
    doc = json.loads(cli("--statistics", "--output-format", "json", "--target-jax", "0.12", ".", cwd=tree).stdout)
    assert {"code": "HJX008", "name": "old-hiprimitive", "kind": "error", "count": 2, "fixable": False} in doc


def test_show_fixes_lists_changes_by_file_and_rule(tree):
    dry = cli("--show-fixes", "--target-jax", "0.12", ".", cwd=tree)
    assert (
        "Would fix 3 changes:\n- ops.py:\n    1 × HJX001 (bwd-returns-cotangents)\n    2 × HJX003 (hiprim-base)\n"
        in (dry.stderr + "\n")
    )
    written = cli("--show-fixes", "--in-place", "--target-jax", "0.12", ".", cwd=tree)
    assert "Fixed 3 changes:\n- ops.py:\n" in written.stderr


def test_extend_select_adds_to_select(tree):
    only = cli("--select", "HJX001", "--target-jax", "0.12", "--output-format", "json", ".", cwd=tree)
    assert {c["rule"] for c in json.loads(only.stdout)["changes"]} == {"HJX001"}
    more = cli(
        "--select",
        "HJX001",
        "--extend-select",
        "HJX003",
        "--target-jax",
        "0.12",
        "--output-format",
        "json",
        ".",
        cwd=tree,
    )
    assert {c["rule"] for c in json.loads(more.stdout)["changes"]} == {"HJX001", "HJX003"}


def test_add_noqa_marks_each_remaining_error_and_nothing_else(tree):
    run = cli("--add-noqa", "--target-jax", "0.12", ".", cwd=tree)
    assert run.returncode == 0 and "Added 2 noqa directives." in run.stderr
    text = (tree / "ops.py").read_text()
    assert "class A(HiPrimitive):  # noqa: HJX008\n" in text
    assert "class B(HiPrimitive):  # an old primitive  # noqa: HJX008\n" in text
    assert text.replace("  # noqa: HJX008", "") == SOURCE  # nothing else changed: the migration is not written
    again = cli("--check", "--target-jax", "0.12", "--select", "HJX008", ".", cwd=tree)
    assert again.returncode == 0 and "2 suppressed" in again.stderr
    assert "Added 0 noqa directives." in cli("--add-noqa", "--target-jax", "0.12", ".", cwd=tree).stderr


def test_add_noqa_merges_into_an_existing_comment(tree):
    (tree / "ops.py").write_text(SOURCE.replace("class A(HiPrimitive):", "class A(HiPrimitive):  # noqa: E501"))
    cli("--add-noqa", "--target-jax", "0.12", ".", cwd=tree)
    assert "class A(HiPrimitive):  # noqa: E501, HJX008\n" in (tree / "ops.py").read_text()


def test_add_noqa_never_writes_into_a_string():
    from hijax_migrate.command.noqa import _commentable

    text = 'x = """\nclass A(HiPrimitive):\n"""\ny = 1 + \\\n    2\nz = 3\n'
    assert _commentable(text) == {3, 5, 6}


def test_unused_suppressions_are_reported_as_ruff_reports_them(tree):
    (tree / "ops.py").write_text(SOURCE + "\n\nx = 1  # noqa: HJX003, F401\n")
    plain = cli("--target-jax", "0.12", ".", cwd=tree)
    assert "HJX100" not in plain.stderr  # only when selected, as RUF100
    run = cli("--target-jax", "0.12", "--extend-select", "HJX100", ".", cwd=tree)
    assert "note: ops.py:17: HJX100 unused suppression `# noqa: HJX003, F401`: nothing of HJX003" in run.stderr
    used = SOURCE.replace("class A(HiPrimitive):", "class A(HiPrimitive):  # noqa: HJX008")
    (tree / "ops.py").write_text(used)
    assert "HJX100" not in cli("--target-jax", "0.12", "--extend-select", "HJX100", ".", cwd=tree).stderr


def test_show_settings_names_each_values_source(tree):
    (tree / "pyproject.toml").write_text('[tool.hijax-migrate]\nstrategy = "accum"\ntarget-jax = "0.11"\n')
    run = cli("--show-settings", "--select", "HJX001", ".", cwd=tree)
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    config = tree / "pyproject.toml"
    assert lines[0] == f"configuration: {config}"
    assert any(
        line.startswith("target ") and line.endswith(f"# target-jax in [tool.hijax-migrate] of {config}")
        for line in lines
    )
    assert any(line.startswith("select ") and line.endswith('["HJX001"]  # command line') for line in lines)
    assert any(line.startswith("strategy ") and '"accum"' in line for line in lines)
    assert any(line.startswith("jobs ") and line.endswith("# default") for line in lines)
    doc = json.loads(cli("--show-settings", "--output-format", "json", ".", cwd=tree).stdout)
    assert doc["target"] == {"value": "0.11.0", "source": f"target-jax in [tool.hijax-migrate] of {config}"}


def test_verbose_says_the_configuration_each_file_and_the_time(tree):
    run = cli("-v", "--target-jax", "0.12", ".", cwd=tree)
    lines = [line for line in run.stderr.splitlines() if line.startswith("verbose: ")]
    assert lines[:3] == [
        "verbose: configuration: none found (the defaults)",
        f"verbose: project root: {tree}",
        "verbose: 1 file to run on",
    ]
    assert "verbose: ops.py: changed, 2 findings" in lines and lines[-1].endswith(" s")
