"""Issue 42, grouped messages: in text, the same message about several
classes of one file is one line listing them; JSON keeps one entry a finding;
the long explanation is ``hijax-migrate rule CODE``'s."""

from __future__ import annotations

import json
from pathlib import Path

from fresh_runs import FORKER
from hijax_migrate.core.model import Finding
from hijax_migrate.output.report import grouped_text

THREE = "from jax.experimental.hijax import HiPrimitive\n" + "".join(
    f"\n\nclass {name}(HiPrimitive):\n    pass\n" for name in ("A", "B", "C")
)


def cli(*args: str, cwd: Path):
    return FORKER.module("hijax_migrate", args, cwd)


def test_the_same_message_for_three_classes_prints_once(tmp_path):
    (tmp_path / "old.py").write_text(THREE)
    run = cli("--target-jax", "0.12", "old.py", cwd=tmp_path)
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1
    assert errors[0].startswith("error: old.py:4: HJX008 A, B, C (lines 4, 8, 12): subclasses `HiPrimitive`")
    assert "3 errors left to fix by hand" in run.stderr  # each finding still counts
    assert "help: `hijax-migrate rule CODE` explains a rule (HJX008)" in run.stderr


def test_json_keeps_one_entry_a_finding(tmp_path):
    (tmp_path / "old.py").write_text(THREE)
    doc = json.loads(cli("--target-jax", "0.12", "--output-format", "json", "old.py", cwd=tmp_path).stdout)
    assert [(w["line"], w["message"].split(":")[0]) for w in doc["warnings"]] == [(4, "A"), (8, "B"), (12, "C")]


def test_the_long_explanation_is_the_rules(tmp_path):
    run = FORKER.module("hijax_migrate", ["rule", "HJX008"], tmp_path)
    assert run.returncode == 0 and run.stdout.startswith("## HJX008 `old-hiprimitive`")


def test_grouping_keeps_different_messages_files_and_rules_apart():
    findings = [
        Finding("a.py", 3, "A: gone", "HJX008", severity="error"),
        Finding("a.py", 9, "B: gone", "HJX008", severity="error"),
        Finding("a.py", 12, "C: other", "HJX008", severity="error"),
        Finding("b.py", 2, "D: gone", "HJX008", severity="error"),
        Finding("a.py", 14, "E: gone", "HJX013", severity="error"),
        Finding("a.py", 20, "no class here", "HJX013", severity="note"),
        Finding("a.py", 21, "no class here", "HJX013", severity="note"),
    ]
    assert grouped_text(findings) == [
        "error: a.py:3: HJX008 A, B (lines 3, 9): gone",
        "error: a.py:12: HJX008 C: other",
        "error: b.py:2: HJX008 D: gone",
        "error: a.py:14: HJX013 E: gone",
        "note: a.py:20: HJX013 no class here",  # one line a finding where no class is named
        "note: a.py:21: HJX013 no class here",
    ]
