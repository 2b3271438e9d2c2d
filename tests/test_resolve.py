"""Names resolved as Python resolves them (issue 25): the subclass search
finds a subclass however Python lets it be spelled."""

from __future__ import annotations

from pathlib import Path

import pytest
from hijax_migrate.analysis.project import Project
from test_project import write

BASE = "class Base:\n    pass\n"
SPELLINGS = {
    "form_feed.py": "import base\n\n\fclass Sub(base.Base):\n    pass\n",
    "continued.py": "import base\n\nclass \\\nSub(base.Base):\n    pass\n",
    "comments.py": "import base\n\nclass\tSub (  # (\n\tbase.Base,  # )\n):\n    pass\n",
    "call_first.py": "import base, six\n\nclass Sub(six.with_metaclass(M), base.Base):\n    pass\n",
    "alias.py": "import base\n\nB = base.Base  # the alias\n\n\nclass Sub(B):\n    pass\n",
    "alias_elsewhere.py": "from alias import B\n\n\nclass Sub(B):\n    pass\n",
    "alias_attribute.py": "import alias as a\n\n\nclass Sub(a.B):\n    pass\n",
    "imported_as.py": "from base import Base as C\n",
    "through_imported_as.py": "from imported_as import C\n\n\nclass Sub(C):\n    pass\n",
    "grandchild.py": "from continued import Sub\n\n\nclass Deeper(Sub):\n    pass\n",
    "unrelated.py": "import base\n\nx = 'Base'\n",
}


@pytest.mark.parametrize("passes", [2, 0], ids=["by passes", "by the index"])
def test_the_subclass_search_finds_every_spelling(tmp_path: Path, passes: int):
    write(tmp_path, {"base.py": BASE, **SPELLINGS})
    project = Project(roots=(tmp_path,), search_passes=passes)
    found = {summary.module for summary in project.modules_naming("Base")}
    assert found == {name[:-3] for name in SPELLINGS} - {"unrelated"}
    assert {"Base", "B", "C", "Sub"} <= project.answers.searched  # each is part of what a cached answer rests on


# Modules resolved as Python resolves them: each file from its own package
# root. Two roots of a monorepo hold a package ``common``; jax's base is in
# one of them only (the first in sorted order, or the second).

HIJAX_OPS = "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
PLAIN_OPS = "class Base:\n    def run(self, res, g):\n        return self.vjp_bwd(res, g)\n"
LAYERS = {
    "common/layer.py": "from .ops import Base\n\n\nclass Layer(Base):\n    def vjp_bwd(self, res, g):\n"
    "        return (g,)\n",
    "common/absolute.py": "from common.ops import Base\n\n\nclass Absolute(Base):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n",
    "common/whole.py": "import common.ops\n\n\nclass Whole(common.ops.Base):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n",
}


def _monorepo(root: Path, hijax: str, plain: str, config: str = "pyproject.toml") -> None:
    for project, ops in ((hijax, HIJAX_OPS), (plain, PLAIN_OPS)):
        write(root / project, {"common/__init__.py": "", "common/ops.py": ops, config: "", **LAYERS})


@pytest.mark.parametrize("hijax, plain", [("proj_a", "proj_b"), ("proj_b", "proj_a")])
@pytest.mark.parametrize("config", ["pyproject.toml", "setup.cfg", "README"])
def test_each_root_of_a_monorepo_resolves_its_own_modules(tmp_path, hijax, plain, config):
    from test_project import migrate_tree

    _monorepo(tmp_path, hijax, plain, config)
    diffs = migrate_tree(tmp_path, target=(0, 12, 0), strategy="rename")
    assert not [name for name in diffs if name.startswith(plain)], diffs  # the plain classes: as they are
    for name in LAYERS:  # the hijax ones: renamed, whichever import names their base
        assert "+    def vjp_bwd_retval(self, res, g):" in diffs[f"{hijax}/{name}"]
    assert "+class Base(HiPrim):" in diffs[f"{hijax}/common/ops.py"]


@pytest.mark.parametrize("hijax", ["proj_a", "proj_b"])
def test_a_subclass_in_the_second_root_keeps_its_base_from_a_rename(tmp_path, hijax):
    from test_project import migrate_tree

    plain = "proj_b" if hijax == "proj_a" else "proj_a"
    value = HIJAX_OPS.replace("    pass\n", "    def vjp_bwd(self, res, g):\n        return (g,)\n")
    accum = (
        "from .ops import Base\n\n\nclass Acc(Base):\n    def vjp_bwd(self, res, g, x_acc):\n        x_acc.accum(g)\n"
    )
    write(tmp_path / hijax, {"common/__init__.py": "", "common/ops.py": value, "common/acc.py": accum})
    write(tmp_path / plain, {"common/__init__.py": "", "common/ops.py": PLAIN_OPS, "common/acc.py": accum})
    diffs = migrate_tree(tmp_path, target=(0, 10, 0), strategy="rename")
    assert "vjp_bwd_retval" not in diffs.get(f"{hijax}/common/ops.py", "")
    assert not [name for name in diffs if name.startswith(plain)], diffs


def test_a_cached_answer_rests_on_the_module_of_its_own_root(tmp_path):
    from hijax_migrate.rules.context import Options
    from hijax_migrate.run.runner import run
    from hijax_migrate.run.state import Job
    from hijax_migrate.sources.files import walk

    tree = tmp_path / "tree"
    _monorepo(tree, "proj_b", "proj_a")

    def diffs() -> dict[str, str]:
        jobs = [Job(p, p.relative_to(tree).as_posix(), tree) for p in walk(tree)]
        outcomes = run(jobs, Options((0, 12, 0)), in_place=False, workers=1, cache_dir=tmp_path / "cache")
        return {o.file: o.diff for o in outcomes if o.diff}

    expected = sorted(f"proj_b/{name}" for name in [*LAYERS, "common/ops.py"])
    assert sorted(diffs()) == expected and sorted(diffs()) == expected  # cold, then warm
    (tree / "proj_b" / "common" / "ops.py").write_text(PLAIN_OPS)  # the base the layers rest on: jax's no more
    assert diffs() == {}


# Every way a base is bound: one bound when the code runs, in another file,
# gets a finding naming the assignment (the class is left as written): an
# error, as each class here carries a value rule that fails on any hijax base.

PROBE = """import jax.experimental.hijax as hijax


def _resolve(*names):
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)
    raise ImportError(names)


HiPrim = _resolve("HiPrim", "VJPHiPrimitive")
"""
ELSEWHERE = {
    "compat.py": PROBE,
    "ns.py": "from types import SimpleNamespace\n\nfrom jax.experimental.hijax import VJPHiPrimitive\n\n"
    "bases = SimpleNamespace(Base=VJPHiPrimitive)\nBASES = (VJPHiPrimitive,)\n",
    "op.py": "from compat import HiPrim\nfrom ns import BASES, bases\n\n\nclass Op(HiPrim):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n\n\nclass Indexed(BASES[0]):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n\n\nclass Named(bases.Base):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n",
}


@pytest.mark.parametrize("target", [(0, 10, 0), (0, 12, 0)])
def test_a_base_bound_when_the_code_runs_in_another_file_is_named_in_a_note(tmp_path, target):
    from hijax_migrate.rules.context import Options
    from hijax_migrate.run.runner import run
    from hijax_migrate.run.state import Job
    from hijax_migrate.sources.files import walk

    write(tmp_path, ELSEWHERE)
    jobs = [Job(p, p.name, tmp_path) for p in walk(tmp_path)]
    outcomes = {o.file: o for o in run(jobs, Options(target), in_place=False, workers=1)}
    assert not outcomes["op.py"].diff
    notes = [(f.line, f.message.split(", bound")[0]) for f in outcomes["op.py"].findings]
    assert notes == [
        (5, "Op: its base is reached through `HiPrim` (compat.py:11)"),
        (10, "Indexed: its base is reached through `BASES` (ns.py:6)"),
        (15, "Named: its base is reached through `bases` (ns.py:5)"),
    ]
    assert all(f.severity == "error" for f in outcomes["op.py"].findings)  # issue 40: value rules, never a note
