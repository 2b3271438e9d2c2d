"""Golden documents: notebooks and Markdown/MyST, input and expected output
side by side (``name.ipynb`` and ``name.out.ipynb``); a case without an
``.out`` file must not change, and a case named ``*_warns`` must say why it
left something alone. Regenerate with ``HIJAX_REGENERATE=1``, then review
``git diff golden/docs``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from golden import GOLDEN
from hijax_migrate.model import Options
from hijax_migrate.project import Project
from hijax_migrate.runner import Job, migrate_document

DOCS = GOLDEN / "docs"
CASES = sorted(p for p in DOCS.iterdir() if ".out." not in p.name)


def expected_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.out{path.suffix}")


def migrate(path: Path, text: str):
    options = Options(target=(0, 10, 0))
    return migrate_document(text, Job(path, path.name, DOCS), options, Project(roots=(DOCS,)))


def without_sources(text: str) -> dict:
    notebook = json.loads(text)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell.pop("source")
    return notebook


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_golden_document(path):
    source = path.read_text(encoding="utf-8")
    result = migrate(path, source)
    out = expected_path(path)
    if os.environ.get("HIJAX_REGENERATE"):
        if result.code != source:
            out.write_text(result.code, encoding="utf-8")
        elif out.exists():
            out.unlink()
        pytest.skip("regenerated")
    expected = out.read_text(encoding="utf-8") if out.exists() else source
    assert result.code == expected
    assert migrate(path, result.code).code == result.code, "a second run changed the output"
    assert bool(result.report.changes) == out.exists()
    if path.suffix == ".ipynb":  # outputs, counts, metadata and prose: as they were
        assert without_sources(result.code) == without_sources(source)
    if path.stem.endswith("_warns"):
        assert result.report.findings


def test_every_kind_of_document_has_cases():
    assert {p.suffix for p in CASES} == {".ipynb", ".md"}
    assert any(expected_path(p).exists() for p in CASES if p.suffix == ".ipynb")
    assert any(expected_path(p).exists() for p in CASES if p.suffix == ".md")


def test_jupytext_paired_files_stay_consistent(tmp_path):
    import subprocess
    import sys

    import jupytext

    notebook = jupytext.reads(
        "# %% [markdown]\n# A guide to `vjp_bwd`\n\n"
        "# %%\n%matplotlib inline\nfrom jax.experimental.hijax import VJPHiPrimitive\n\n\n"
        "class Base(VJPHiPrimitive):\n    pass\n\n"
        "# %%\nclass Mul(Base):\n    def vjp_fwd(self, nzs_in, x, y):\n        return x * y, (x, y)\n\n"
        "    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n",
        fmt="py:percent")
    notebook.metadata["jupytext"] = {"formats": "ipynb,py:percent,md:myst"}
    notebook.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    for fmt, name in (("ipynb", "guide.ipynb"), ("py:percent", "guide.py"), ("md:myst", "guide.md")):
        jupytext.write(notebook, tmp_path / name, fmt=fmt)
    done = subprocess.run([sys.executable, "-m", "hijax_migrate", "--in-place", "-q", "--target-jax", "0.10",
                           str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    code = {name: [c.source for c in jupytext.read(tmp_path / name).cells if c.cell_type == "code"]
            for name in ("guide.ipynb", "guide.py", "guide.md")}
    assert "def vjp_bwd_retval(self, res, g):" in code["guide.ipynb"][-1]
    assert code["guide.ipynb"] == code["guide.py"] == code["guide.md"]


@pytest.mark.parametrize("name", ["markdown_fences.md", "notebook_cross_cell.ipynb"])
def test_black_leaves_document_cells_as_the_rewrite_writes_them(name):
    path = DOCS / name
    options = Options(target=(0, 10, 0), black=True)
    result = migrate_document(path.read_text(encoding="utf-8"), Job(path, name, DOCS), options,
                              Project(roots=(DOCS,)))
    assert result.code == expected_path(path).read_text(encoding="utf-8")
