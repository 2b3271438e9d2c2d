"""Issue 42, one target, visible: every run names its target and where it
came from before its findings; a project that pins nothing is told so, and
how to pin; ``--list-rules`` lists every rule, each marked active or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.rules.registry import all_rules

OLD = "from jax.experimental.hijax import HiPrimitive\n\n\nclass Old(HiPrimitive):\n    pass\n"
# A run in an environment without jax: the installed jax is not found.
WITHOUT_JAX = (
    "from hijax_migrate.releases import target; target.from_installed = lambda: None; "
    "from hijax_migrate.cli import run; run()"
)
WITH_JAX = (
    "from hijax_migrate.releases import target; target.from_installed = lambda: ((0, 10, 2), target.INSTALLED); "
    "from hijax_migrate.cli import run; run()"
)


def cli(*args: str, cwd: Path, stdin: str | None = None):
    return FORKER.module("hijax_migrate", args, cwd, stdin)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "old.py").write_text(OLD)
    return tmp_path


def test_the_target_is_named_before_the_findings(tree):
    run = cli("--target-jax", "0.12", ".", cwd=tree)
    lines = run.stderr.splitlines()
    assert lines[0] == "target: jax 0.12.0 (--target-jax)"
    assert lines[1].startswith("error: old.py:4: HJX008")
    assert "pins no jax" not in run.stderr  # the flag is the user's word


def test_a_pin_is_named_with_its_file(tree):
    (tree / "requirements.txt").write_text("jax>=0.10\n")
    run = cli(".", cwd=tree)
    assert run.stderr.splitlines()[0] == f"target: jax 0.12.0 (pinned in {tree / 'requirements.txt'}: jax>=0.10)"
    assert "pins no jax" not in run.stderr


def test_json_holds_the_target_first(tree):
    doc = json.loads(cli("--target-jax", "0.12", "--output-format", "json", ".", cwd=tree).stdout)
    assert next(iter(doc)) == "target"
    assert doc["target"] == {"jax": "0.12.0", "source": "--target-jax", "pinned": True}


def test_github_output_warns_first_of_an_unpinned_target(tree):
    run = FORKER.code(WITHOUT_JAX, ["--output-format", "github", "."], tree)
    first = run.stdout.splitlines()[0]
    assert first.startswith("::warning title=hijax-migrate target::target: jax 0.12.0 (the newest release")
    assert "Pin it" in first
    pinned = cli("--target-jax", "0.12", "--output-format", "github", ".", cwd=tree)
    assert "hijax-migrate target" not in pinned.stdout  # the user's word: no annotation on every pull request


def test_stdin_runs_name_the_target(tree):
    run = cli("--target-jax", "0.10", "-", cwd=tree, stdin=OLD)
    assert run.stderr.splitlines()[0] == "target: jax 0.10.0 (--target-jax)"


@pytest.mark.parametrize("program", [WITH_JAX, WITHOUT_JAX], ids=["with-jax", "without-jax"])
def test_an_unpinned_project_is_told_why_and_how_to_pin(tree, program):
    run = FORKER.code(program, ["."], tree)
    first, warning = run.stderr.splitlines()[:2]
    assert first.startswith("target: jax ")
    assert warning.startswith("warning: the project pins no jax, so the target is the ")
    assert "another environment may choose another" in warning and "Pin it: jax>=" in warning
    doc = json.loads(FORKER.code(program, ["--output-format", "json", "."], tree).stdout)
    assert doc["target"]["pinned"] is False and "Pin it" in doc["target"]["warning"]


def test_two_environments_agree_on_a_pinned_project(tree):
    (tree / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["jax>=0.10,<0.11"]\n')
    with_jax, without_jax = (FORKER.code(p, ["--output-format", "json", "."], tree) for p in (WITH_JAX, WITHOUT_JAX))
    assert with_jax.stdout == without_jax.stdout and with_jax.returncode == without_jax.returncode
    assert json.loads(with_jax.stdout)["target"]["pinned"] is True


def test_two_environments_on_an_unpinned_project_say_why_they_differ(tree):
    with_jax, without_jax = (FORKER.code(p, ["."], tree).stderr for p in (WITH_JAX, WITHOUT_JAX))
    assert "the target is the jax installed beside the tool" in with_jax
    assert "the target is the newest release the tool knows, as no jax is installed beside it" in without_jax


def test_list_rules_lists_every_rule_marked_at_the_target(tree):
    run = cli("--list-rules", "--target-jax", "0.10", cwd=tree)
    lines = run.stdout.splitlines()
    assert lines[0] == "target: jax 0.10.0 (--target-jax)"
    marks = {line.split()[0]: line.split()[4] for line in lines[1:]}
    assert set(marks) == {r.code for r in all_rules()}
    assert {code for code, mark in marks.items() if mark == "active"} == {
        r.code for r in all_rules() if r.since <= (0, 10, 0)
    }
    assert marks["HJX003"] == "after"  # "after target": a later release's


def test_list_rules_json_has_the_target_and_an_active_flag(tree):
    run = cli("--list-rules", "--output-format", "json", "--target-jax", "0.12", "--ignore", "HJX001", cwd=tree)
    doc = json.loads(run.stdout)
    assert doc["target"]["jax"] == "0.12.0"
    flags = {r["code"]: (r["active"], r["status"]) for r in doc["rules"]}
    assert flags["HJX001"] == (False, "deselected") and flags["HJX010"] == (True, "active")
    assert len(flags) == len(all_rules())


def test_list_rules_warns_an_unpinned_project(tree):
    run = FORKER.code(WITHOUT_JAX, ["--list-rules"], tree)
    assert run.stderr.startswith("warning: the project pins no jax")
    assert all(line.split()[4] == "active" for line in run.stdout.splitlines()[1:])  # the newest: every rule
