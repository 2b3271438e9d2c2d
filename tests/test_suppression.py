"""Comments that leave code alone, as ruff's ``# noqa``: on a line, a class
(and so its family) or a whole file; suppressed findings are counted, never
shown."""

from __future__ import annotations

import json
from pathlib import Path

from fresh_runs import FORKER
from hijax_migrate.analysis.project import Project
from hijax_migrate.core.model import SUPPRESSED, Options
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.run.runner import migrate_document
from hijax_migrate.run.state import Job

ROOT = Path(__file__).resolve().parents[1]
IMPORT = "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
MUL = """class Mul(VJPHiPrimitive):{mark}
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):{rule_mark}
        x, y = res
        return (g * y, g * x)
"""
ADD = """

class Add(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g):
        return (g, g)
"""
OLD = "from jax.experimental.hijax import HiPrimitive\n\n\nclass Old(HiPrimitive):{mark}\n    pass\n"
AT_010 = Options(target=(0, 10, 0))


def mul(mark: str = "", rule_mark: str = "") -> str:
    return MUL.format(mark=mark, rule_mark=rule_mark)


def suppressed(result) -> list:
    return [f for f in result.report.findings if f.severity == SUPPRESSED]


def test_a_marked_class_keeps_every_byte_and_the_rest_is_migrated():
    code = IMPORT + mul("  # hijax-migrate: skip") + ADD
    result = migrate_source(code, "ops.py", AT_010)
    assert mul("  # hijax-migrate: skip") in result.code
    assert "class Add(VJPHiPrimitive):" in result.code and result.code.count("def vjp_bwd_retval(") == 1
    assert [c.cls for c in result.report.changes] == ["Add"] and len(suppressed(result)) == 1


def test_a_mark_on_a_line_of_the_class_leaves_its_change_and_its_class_alone():
    code = IMPORT + mul(rule_mark="  # noqa: HJX001") + ADD
    result = migrate_source(code, "ops.py", AT_010)
    assert mul(rule_mark="  # noqa: HJX001") in result.code and [c.cls for c in result.report.changes] == ["Add"]


def test_a_code_list_covers_those_rules_only_and_ruffs_own_codes_are_not_ours():
    for mark in ("  # noqa: HJX002", "  # noqa: E501", "  # noqa", "  # noqa: F401, HJX0099"):
        result = migrate_source(IMPORT + mul(rule_mark=mark), "ops.py", AT_010)
        assert "def vjp_bwd_retval(" in result.code and not suppressed(result), mark
    both = migrate_source(IMPORT + mul(rule_mark="  # noqa: E501, HJX001"), "ops.py", AT_010)
    assert "def vjp_bwd_retval(" not in both.code and len(suppressed(both)) == 1


def test_a_subclass_of_a_marked_class_is_left_alone_with_it():
    """A family is migrated whole or not at all: a rename in the subclass alone
    would leave its super().vjp_bwd reaching a rule of the other form."""
    sub = (
        "\n\nclass Twice(Mul):\n    def vjp_bwd(self, res, g):\n        gx, gy = super().vjp_bwd(res, g)\n"
        "        return 2 * gx, 2 * gy\n"
    )
    code = IMPORT + mul("  # hijax-migrate: skip") + sub + ADD
    result = migrate_source(code, "ops.py", AT_010)
    assert (IMPORT + mul("  # hijax-migrate: skip") + sub) in result.code
    assert [c.cls for c in result.report.changes] == ["Add"]
    assert [f.line for f in suppressed(result)] == [8, 14]  # each class's rename, counted


def test_an_error_finding_is_suppressed_and_counted_not_shown(tmp_path):
    (tmp_path / "old.py").write_text(OLD.format(mark="  # noqa: HJX008"))
    (tmp_path / "other.py").write_text(OLD.format(mark="  # noqa: HJX001"))
    run = FORKER.module("hijax_migrate", ["--target-jax", "0.12", "--check", "."], tmp_path)
    assert run.stdout == "other.py\n" and run.returncode == 1
    assert "old.py" not in run.stderr and "error: other.py:4: HJX008" in run.stderr
    assert "1 error left to fix by hand, 1 suppressed" in run.stderr
    doc = json.loads(
        FORKER.module("hijax_migrate", ["--target-jax", "0.12", "--output-format", "json", "."], tmp_path).stdout
    )
    assert [w["file"] for w in doc["warnings"]] == ["other.py"] and doc["summary"]["suppressed"] == 1
    alone = FORKER.module("hijax_migrate", ["--target-jax", "0.12", "--check", "old.py"], tmp_path)
    assert alone.returncode == 0 and alone.stdout == ""


def test_skip_file_on_a_line_of_its_own_and_only_there():
    marked = migrate_source("# hijax-migrate: skip-file\n" + IMPORT + mul(), "ops.py", AT_010)
    assert marked.code == "# hijax-migrate: skip-file\n" + IMPORT + mul() and not marked.report.changes
    in_a_string = 'NOTE = """\n# hijax-migrate: skip-file\n"""\n' + IMPORT + mul()
    assert "def vjp_bwd_retval(" in migrate_source(in_a_string, "ops.py", AT_010).code
    trailing = IMPORT + mul() + "x = 1  # hijax-migrate: skip-file\n"
    assert "def vjp_bwd_retval(" in migrate_source(trailing, "ops.py", AT_010).code


def test_a_markdown_document_marked_skip_file_is_left_alone(tmp_path):
    fence = "# Guide\n\n```python\n" + IMPORT + mul() + "```\n"
    path = tmp_path / "guide.md"
    options, project = AT_010, Project(roots=(tmp_path,))
    assert "vjp_bwd_retval" in migrate_document(fence, Job(path, "guide.md", tmp_path), options, project).code
    marked = "<!-- hijax-migrate: skip-file -->\n" + fence
    assert migrate_document(marked, Job(path, "guide.md", tmp_path), options, project).code == marked
    shouted = "<!-- HIJAX-MIGRATE: Skip-File -->\n" + fence  # as a Python file's mark: in any case
    assert migrate_document(shouted, Job(path, "guide.md", tmp_path), options, project).code == shouted


def test_this_repositorys_documents_are_left_alone_by_their_marks_alone(tmp_path):
    """Run on its own README and docs, the tool changes and reports nothing;
    the rules page would be rewritten without its mark."""
    names = ["README.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]
    run = FORKER.module("hijax_migrate", ["--target-jax", "0.12", "--no-cache", "--check", *names], ROOT)
    assert (run.returncode, run.stdout) == (0, ""), run.stderr
    assert "error:" not in run.stderr and "note:" not in run.stderr
    rules = (ROOT / "docs" / "rules.md").read_text()
    unmarked = rules.replace("<!-- hijax-migrate: skip-file -->", "")
    (tmp_path / "rules.md").write_text(unmarked)
    done = FORKER.module("hijax_migrate", ["--target-jax", "0.12", "--no-cache", "--check", "rules.md"], tmp_path)
    assert done.returncode == 1 and done.stdout == "rules.md\n"
