"""The tree is searched (for subclasses, for uses of a rule) inside the projects of
the run's files: never in the folders beside a project, nor in a working
directory outside it, though imports still resolve from there."""

from __future__ import annotations

from pathlib import Path

from hijax_migrate.run.state import Job, roots_of, searched_roots
from hijax_migrate.tree.modules import Packages
from test_cli import cli

OPS = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    def vjp_bwd(self, res, g):
        return (2 * g,)
"""
# A look-alike beside the project: an object of unknown class whose call could bind Op's rule.
BESIDE = """def run(quantizer, res, g):
    return quantizer.vjp_bwd(res, g)
"""


def _layout(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("[project]\nname = 'proj'\n")
    (tmp_path / "proj" / "ops.py").write_text(OPS)
    (tmp_path / "beside").mkdir()
    (tmp_path / "beside" / "quant.py").write_text(BESIDE)
    return tmp_path


def test_a_file_named_from_outside_its_project_is_decided_on_its_project_alone(tmp_path):
    root = _layout(tmp_path)
    result = cli("--diff", "--strategy", "accum", "--target-jax", "0.10", "proj/ops.py", cwd=root)
    assert "x_acc.accum(2 * g)" in result.stdout, result.stderr  # no use beside the project stops it
    assert "beside" not in result.stderr
    (root / "proj" / "quant.py").write_text(BESIDE)  # the same use inside the project counts
    inside = cli("--diff", "--strategy", "accum", "--target-jax", "0.10", "proj/ops.py", cwd=root)
    assert "vjp_bwd_retval" in inside.stdout and "quant.py:2" in inside.stderr


def test_searched_roots_keep_inside_each_files_project(tmp_path):
    root = _layout(tmp_path)
    jobs = [Job(root / "proj" / "ops.py", "proj/ops.py", None)]
    packages = Packages()
    roots = roots_of(jobs, packages) + (root,)  # the working directory, above the project
    assert searched_roots(roots, jobs, packages) == ((root / "proj").resolve(),)
