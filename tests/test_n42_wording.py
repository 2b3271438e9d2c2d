"""Issue 42, the docs and the wording: an unversioned jax requirement,
'1 file', GitHub annotations with the rule's name and pending changes worded
as pending, primitives counted as rewritten, the pages a newcomer reads first."""

from __future__ import annotations

import re
from pathlib import Path

from fresh_runs import FORKER
from hijax_migrate.core.model import Change, Outcome
from hijax_migrate.output.report import Totals, as_github

ROOT = Path(__file__).resolve().parents[1]
OLD = """from jax.experimental.hijax import VJPHiPrimitive, HiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)


class Old(HiPrimitive):
    pass
"""


def cli(*args: str, cwd: Path):
    return FORKER.module("hijax_migrate", args, cwd)


def test_an_unversioned_requirement_is_said_once_and_not_called_a_pin(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "ops.py").write_text(OLD)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax"]\n[project.optional-dependencies]\ngpu = ["jax"]\n'
    )
    first = cli(".", cwd=tmp_path).stderr.splitlines()[0]
    assert "jax, jax" not in first and "pinned" not in first
    assert first == (
        f"target: jax 0.12.0 ({tmp_path / 'pyproject.toml'} requires jax with no version (jax): "
        "the newest release the tool knows)"
    )


def test_github_annotations_name_the_rule_and_word_pending_changes_as_pending(tmp_path):
    (tmp_path / "ops.py").write_text(OLD)
    lines = cli("--output-format", "github", "--target-jax", "0.12", "ops.py", cwd=tmp_path).stdout.splitlines()
    assert any(
        line.startswith("::error file=ops.py,line=9,title=HJX008 old-hiprimitive::Old: subclasses") for line in lines
    )
    change = next(line for line in lines if "title=HJX001 bwd-returns-cotangents::" in line)
    assert change.endswith(
        "::would migrate: renamed `vjp_bwd` to `vjp_bwd_retval` (pending; run hijax-migrate --in-place to write it)"
    )
    written = Outcome(
        "ops.py", [Change("ops.py", 5, "Mul", "HJX001", "bwd-returns-cotangents", "renamed")], written=True
    )
    assert as_github([written]).endswith("::migrated: renamed")


def test_primitives_found_counts_every_class_rewritten():
    changes = [Change("m.py", line, cls, "HJX010", "dce-live-ins", "x") for line, cls in ((3, "Mixin"), (9, "Op"))]
    assert Totals.of([Outcome("m.py", changes, primitives=1)]).primitives == 2
    assert Totals.of([Outcome("m.py", changes[:1], primitives=3)]).primitives == 3


def test_speed_page_opens_with_how_fast_on_what():
    page = (ROOT / "docs" / "speed.md").read_text()
    first_heading = re.search(r"^## (.+)$", page, re.M).group(1)
    assert first_heading == "How fast, on what"
    assert "5.2 s" in page.split("## ", 2)[1]


def test_safety_page_links_to_readme_sections_that_exist():
    page = (ROOT / "docs" / "safety.md").read_text()
    readme = (ROOT / "README.md").read_text()
    anchors = {re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", readme, re.M)}
    linked = re.findall(r"\(\.\./README\.md#([^)]+)\)", page)
    assert linked and set(linked) <= anchors
    assert 'README\'s "Your files are safe"' not in page
