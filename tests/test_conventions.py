"""What ruff and black users expect: exit codes, summary wording, a path
that defaults to the current folder, rules chosen in the configuration and
explained one at a time, coloured labels, JSON in the file's order."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.rules.registry import all_rules

OP = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""
OLD = "from jax.experimental.hijax import HiPrimitive\n\n\nclass Old(HiPrimitive):\n    pass\n"
# Two findings, the later line first in the rules' order: HJX008 (line 8) runs before HJX013 (line 4).
TWO = (
    "from jax.experimental.hijax import HiPrimitive, MutableHiType\n\n\n"
    "def f():\n    return MutableHiType\n\n\nclass Old(HiPrimitive):\n    pass\n"
)


def cli(*args: str, cwd: Path, stdin: str | None = None, env: dict | None = None):
    if env is None:
        return FORKER.module("hijax_migrate", args, cwd, stdin)
    return FORKER.code("from hijax_migrate.cli import run; run()", list(args), cwd, env)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "ops.py").write_text(OP)
    return tmp_path


def test_no_path_is_the_current_folder(tree):
    run = cli("--target-jax", "0.10", cwd=tree / "pkg")
    assert run.returncode == 1 and "+++ b/ops.py" in run.stdout


def test_an_empty_tree_warns_and_exits_0_as_ruff_does(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to migrate\n")
    run = cli(str(tmp_path), "--target-jax", "0.10", cwd=tmp_path)
    assert run.returncode == 0
    assert run.stderr.startswith("warning: No Python files found under the given path(s)\n")


def test_in_place_exits_1_while_an_error_is_left_and_0_once_all_is_done(tree):
    (tree / "old.py").write_text(OLD)
    assert cli("--in-place", "--target-jax", "0.12", ".", cwd=tree).returncode == 1
    assert "vjp_bwd_retval" in (tree / "pkg" / "ops.py").read_text()  # what could be done was done
    (tree / "old.py").unlink()
    (tree / "pkg" / "ops.py").write_text(OP)
    assert cli("--in-place", "--target-jax", "0.12", ".", cwd=tree).returncode == 0


def test_the_summary_names_only_what_there_is(tree):
    (tree / "broken.py").write_text("def vjp_bwd(:\n")
    run = cli("--target-jax", "0.10", ".", cwd=tree)
    assert "error: broken.py:1: syntax error" in run.stderr
    assert "would migrate 1 file; 1 file could not be processed\n" in run.stderr
    assert "0 errors" not in run.stderr and "0 notes" not in run.stderr
    clean = cli("--target-jax", "0.10", "--in-place", "pkg", cwd=tree)
    again = cli("--target-jax", "0.10", "--in-place", "pkg", cwd=tree)
    assert "  HJX001 bwd-returns-cotangents: 1" in clean.stderr
    assert "migrated 0 files; nothing left to fix\n" in again.stderr and "HJX001" not in again.stderr


def test_rule_counts_follow_only_files_really_written(tree):
    os.chmod(tree / "pkg" / "ops.py", 0o444)
    run = cli("--target-jax", "0.10", "--in-place", "pkg", cwd=tree)
    assert run.returncode == 3 and "migrated 0 files" in run.stderr and "HJX001" not in run.stderr.split("target:")[1]


def test_check_on_stdin_prints_the_files_name(tree):
    run = cli("--check", "--target-jax", "0.10", "-", cwd=tree, stdin=OP)
    assert (run.returncode, run.stdout) == (1, "-\n")
    named = cli("--check", "--target-jax", "0.10", "--stdin-filename", "pkg/x.py", "-", cwd=tree, stdin=OP)
    assert named.stdout == "pkg/x.py\n"
    clean = cli("--check", "--target-jax", "0.10", "-", cwd=tree, stdin="x = 1\n")
    assert (clean.returncode, clean.stdout) == (0, "")


def test_the_pin_note_survives_quiet_and_is_in_json_and_github(tree):
    (tree / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["jax>=0.10"]\n')
    quiet = cli("-q", "--target-jax", "0.12", "pkg", cwd=tree)
    assert "note: the migrated code needs jax >= 0.11.2" in quiet.stderr and "scanned" not in quiet.stderr
    doc = json.loads(cli("--output-format", "json", "--target-jax", "0.12", "pkg", cwd=tree).stdout)
    assert [n for n in doc["summary"]["notes"] if "needs jax >= 0.11.2" in n]
    github = cli("--output-format", "github", "--target-jax", "0.12", "pkg", cwd=tree).stdout
    assert github.startswith("::notice title=hijax-migrate::the migrated code needs jax >= 0.11.2")


def test_json_findings_are_in_the_files_order(tmp_path):
    (tmp_path / "two.py").write_text(TWO)
    doc = json.loads(cli("--output-format", "json", "--target-jax", "0.12", "two.py", cwd=tmp_path).stdout)
    lines = [w["line"] for w in doc["warnings"]]
    assert len(lines) >= 2 and lines == sorted(lines)


def test_an_absolute_path_is_named_from_here_or_by_its_own_name(tree, tmp_path_factory):
    """As ruff: from the current folder where the file is inside it (so that
    ``git apply`` takes the diff); elsewhere the path itself, never ``a/`` and
    the absolute path."""
    inside = cli("--target-jax", "0.10", str(tree / "pkg" / "ops.py"), cwd=tree)
    assert inside.stdout.startswith("--- a/pkg/ops.py\n+++ b/pkg/ops.py\n")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    applied = subprocess.run(
        ["git", "apply", "--check", "-"], input=inside.stdout, text=True, cwd=tree, capture_output=True, check=False
    )
    assert applied.returncode == 0, applied.stderr
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    outside = cli("--target-jax", "0.10", str(tree / "pkg" / "ops.py"), cwd=elsewhere)
    path = str(tree / "pkg" / "ops.py")
    assert outside.stdout.startswith(f"--- {path}\n+++ {path}\n")


def test_the_newest_release_is_named_once(tmp_path, monkeypatch):
    """Not "(the newest release the tool knows (0.12.0))": one bracket, one version."""
    from hijax_migrate.command import config
    from hijax_migrate.command.session import options_of
    from hijax_migrate.command.usage import build_parser, settings_from
    from hijax_migrate.core.versions import LATEST, format_version
    from hijax_migrate.releases import target

    monkeypatch.setattr(target, "from_installed", lambda: None)
    monkeypatch.chdir(tmp_path)
    flags = settings_from(build_parser().parse_args([str(tmp_path)]))
    _, described = options_of(config.apply(flags, config.load(tmp_path)))
    assert described == f"jax {format_version(LATEST)} (the newest release the tool knows)"


@pytest.mark.parametrize(
    "env, colored", [({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False), ({}, False)]
)
def test_labels_are_coloured_as_ruff_colours_them(tmp_path, env, colored):
    (tmp_path / "old.py").write_text(OLD)
    base = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    run = cli("--target-jax", "0.12", "old.py", cwd=tmp_path, env=base | env)
    assert ("\033[1;31merror\033[0m: old.py:4: HJX008" in run.stderr) is colored
    assert ("error: old.py:4: HJX008" in run.stderr) is not colored


def test_select_and_ignore_in_the_configuration(tree):
    (tree / "pyproject.toml").write_text('[tool.hijax-migrate]\nselect = ["HJX0"]\nignore = "HJX001"\n')
    assert cli("--target-jax", "0.10", "--check", "pkg", cwd=tree).returncode == 0  # HJX001 ignored
    assert cli("--target-jax", "0.10", "--check", "--ignore", "HJX002", "pkg", cwd=tree).returncode == 1
    (tree / "pyproject.toml").write_text('[tool.hijax-migrate]\nselect = ["HJX999"]\n')
    bad = cli("--target-jax", "0.10", "pkg", cwd=tree)
    assert bad.returncode == 2 and "HJX999" in bad.stderr


def test_rule_explains_one_rule_as_ruff_rule_does(tmp_path):
    from hijax_migrate.output.docs import rule_markdown

    rule = all_rules()[0]
    run = cli("rule", rule.code.lower(), cwd=tmp_path)
    assert (run.returncode, run.stdout) == (0, rule_markdown(rule))
    doc = json.loads(cli("rule", rule.name, "--output-format", "json", cwd=tmp_path).stdout)
    assert doc == [{"code": rule.code, "name": rule.name, "release": rule.release, "summary": rule.summary}]
    unknown = cli("rule", "HJX999", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown rule 'HJX999'" in unknown.stderr


def test_list_rules_as_json_follows_the_target(tmp_path):
    doc = json.loads(cli("--list-rules", "--output-format", "json", "--target-jax", "0.11.1", cwd=tmp_path).stdout)
    assert doc["target"] == {"jax": "0.11.1", "source": "--target-jax", "pinned": True}
    assert [r["code"] for r in doc["rules"]] == sorted(r.code for r in all_rules())  # every rule, each marked
    assert [r["code"] for r in doc["rules"] if r["active"]] == sorted(
        r.code for r in all_rules() if r.since <= (0, 11, 1)
    )
    (tmp_path / "pyproject.toml").write_text('[tool.hijax-migrate]\ntarget-jax = "0.9"\nignore = ["HJX001"]\n')
    lines = cli("--list-rules", cwd=tmp_path).stdout.splitlines()[1:]
    listed = {line.split()[0] for line in lines if line.split()[4] == "active"}
    assert "HJX002" in listed and "HJX001" not in listed and "HJX003" not in listed


def test_a_notebooks_diff_is_code_cell_by_cell(tmp_path):
    golden = Path(__file__).resolve().parents[1] / "golden" / "docs" / "notebook_cross_cell.ipynb"
    (tmp_path / "nb.ipynb").write_bytes(golden.read_bytes())
    diff = cli("--target-jax", "0.10", "nb.ipynb", cwd=tmp_path).stdout
    assert diff.startswith("--- a/nb.ipynb:cell 3\n+++ b/nb.ipynb:cell 3\n@@ ")
    assert "+    def vjp_bwd_retval(self, res, g):\n" in diff and '\\n"' not in diff and "No newline" not in diff


def test_an_error_in_a_markdown_fence_names_the_documents_line(tmp_path):
    (tmp_path / "doc.md").write_text(
        "# Doc\n\nText.\n\n```python\nfrom jax.experimental.hijax import HiPrim\n\n\nclass A(HiPrim):\n    pass\n```\n"
    )
    run = cli("--target-jax", "0.10", "doc.md", cwd=tmp_path)
    assert "error: doc.md:9: class A already uses HiPrim" in run.stderr
