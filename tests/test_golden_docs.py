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
from hijax_migrate.analysis.project import Project
from hijax_migrate.core.model import Options
from hijax_migrate.run.runner import migrate_document
from hijax_migrate.run.state import Job
from jax_batch import JAX_012

from golden import GOLDEN

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
    import jupytext
    from fresh_runs import FORKER

    notebook = jupytext.reads(
        "# %% [markdown]\n# A guide to `vjp_bwd`\n\n"
        "# %%\n%matplotlib inline\nfrom jax.experimental.hijax import VJPHiPrimitive\n\n\n"
        "class Base(VJPHiPrimitive):\n    pass\n\n"
        "# %%\nclass Mul(Base):\n    def vjp_fwd(self, nzs_in, x, y):\n        return x * y, (x, y)\n\n"
        "    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n",
        fmt="py:percent",
    )
    notebook.metadata["jupytext"] = {"formats": "ipynb,py:percent,md:myst"}
    notebook.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    for fmt, name in (("ipynb", "guide.ipynb"), ("py:percent", "guide.py"), ("md:myst", "guide.md")):
        jupytext.write(notebook, tmp_path / name, fmt=fmt)
    done = FORKER.module("hijax_migrate", ["--in-place", "-q", "--target-jax", "0.10", str(tmp_path)], Path.cwd())
    assert done.returncode == 0, done.stderr
    code = {
        name: [c.source for c in jupytext.read(tmp_path / name).cells if c.cell_type == "code"]
        for name in ("guide.ipynb", "guide.py", "guide.md")
    }
    assert "def vjp_bwd_retval(self, res, g):" in code["guide.ipynb"][-1]
    assert code["guide.ipynb"] == code["guide.py"] == code["guide.md"]


@pytest.mark.parametrize("name", ["markdown_fences.md", "notebook_cross_cell.ipynb"])
def test_black_leaves_document_cells_as_the_rewrite_writes_them(name):
    path = DOCS / name
    options = Options(target=(0, 10, 0), black=True)
    result = migrate_document(path.read_text(encoding="utf-8"), Job(path, name, DOCS), options, Project(roots=(DOCS,)))
    assert result.code == expected_path(path).read_text(encoding="utf-8")


def notebook(*sources: str) -> str:
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": source.splitlines(keepends=True),
        }
        for source in sources
    ]
    return (
        json.dumps(
            {
                "cells": cells,
                "metadata": {"kernelspec": {"language": "python", "name": "python3", "display_name": "P"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            },
            indent=1,
        )
        + "\n"
    )


IMPORTS = "from jax.experimental.hijax import VJPHiPrimitive\nimport jax\nimport numpy as np\n"
SQ = """class Sq(VJPHiPrimitive):
  def __init__(self, aval):
    self.in_avals = (aval,)
    self.out_aval = aval
    self.params = {}
    super().__init__()

  def expand(self, x):
    return x * x

  def vjp_fwd(self, nzs_in, x):
    return self(x), x

  def vjp_bwd(self, res, g):
    return (2 * res * g,)
"""
CHECK = "!pip list | grep jax\nnp.testing.assert_allclose(jax.grad(lambda x: Sq(jax.typeof(x))(x))(3.0), 6.0)\n"


def migrate_012(text: str):
    path = DOCS / "nb.ipynb"
    return migrate_document(text, Job(path, path.name, DOCS), Options(target=(0, 12, 0)), Project())


MAGICS = ["%%time", "%%timeit -n 1 -r 1", "%%capture out"]


def cell_sources(magic: str) -> list[str]:
    result = migrate_012(notebook(IMPORTS, f"{magic}\n{SQ}", CHECK))
    return ["".join(cell["source"]) for cell in json.loads(result.code)["cells"]]


def cells_as_a_script(magic: str) -> str:
    """The migrated cells as IPython runs them, less the magics."""
    return (
        "".join(
            line
            for source in cell_sources(magic)
            for line in source.splitlines(keepends=True)
            if not line.startswith(("%", "!"))
        )
        + "\nprint('OK')\n"
    )


@pytest.mark.parametrize("magic", MAGICS)
def test_python_cell_magics_are_migrated_with_the_rest(magic):
    """A %%time cell is Python: its class follows the import renamed in another
    cell (else: NameError there); the magic line keeps its bytes."""
    sources = cell_sources(magic)
    assert sources[1].startswith(f"{magic}\nclass Sq(HiPrim):") and "def vjp_bwd_retval(" in sources[1]
    assert "import HiPrim\n" in sources[0]


def cell_magic_scripts(batch) -> dict:
    """An extra of jax_012_runs: each magic's migrated cells, run by the batch as one script."""
    folder = batch.folder_for("cell-magics")
    scripts = {}
    for number, magic in enumerate(MAGICS):
        (folder / f"cells{number}.py").write_text(cells_as_a_script(magic))
        scripts["script", "cell magic", magic] = batch.script(folder / f"cells{number}.py")
    return scripts


@pytest.mark.jax
@pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")
@pytest.mark.parametrize("magic", MAGICS)
def test_python_cell_magics_run_under_jax_012(magic, jax_012_runs):
    """The migrated cells of the test above run under jax 0.12 (the class follows the import)."""
    script = jax_012_runs["script", "cell magic", magic]
    assert script.text == cells_as_a_script(magic)  # the batch ran this migration
    run_ = script.ran()
    assert run_.returncode == 0 and "OK" in run_.stdout, run_.stderr


@pytest.mark.parametrize(
    "opaque, what",
    [
        ("%%bash\npython -c 'from ops import *; print(VJPHiPrimitive)'\n", "is not Python"),
        ("x = 1\n%timeit isinstance(x, VJPHiPrimitive)\n", "has a magic line `%timeit isinstance"),
    ],
)
def test_a_name_text_left_as_it_is_uses_is_not_renamed(opaque, what):
    """The rename would leave that text naming what nothing binds any more."""
    from hijax_migrate.core.errors import MigrationError

    with pytest.raises(MigrationError, match=f"cell 3 {what}.* uses `VJPHiPrimitive`, which the migration renames"):
        migrate_012(notebook(IMPORTS, SQ, opaque))
    done = migrate_012(notebook(IMPORTS, SQ, "%%bash\necho vjp_bwd\n"))  # no name imported: migrated
    assert "HiPrim" in done.code and "echo vjp_bwd" in done.code
