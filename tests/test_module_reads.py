"""A base rename keeps the old name bound in a module another module reads it off.

A module's globals are the attributes of its module object (the data model): every
way another module holds that object and reads an attribute of it, or has a star
import bind its names, is drawn below. The migrated tree is then imported under a
stand-in jax that has the new name only: each reader still finds the old name, where
the rename of the module it reads (``compat``) would have left an AttributeError or a
NameError behind with nothing said. A reader of another object's attribute of that
name leaves the rename outright (``analysis.module_reads``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

COMPAT = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
"""
STUB = {  # jax at 0.12: the new name only
    "jax/__init__.py": "",
    "jax/experimental/__init__.py": "",
    "jax/experimental/hijax.py": "class HiPrim:\n    pass\n",
}
READERS = {
    "attribute": "from pkg import compat\n\nBase = compat.VJPHiPrimitive\n",
    "dotted": "import pkg.compat\n\nBase = pkg.compat.VJPHiPrimitive\n",
    "alias in a function": "import pkg.compat as c\n\n\ndef f():\n    return c.VJPHiPrimitive\n\n\nBase = f()\n",
    "import in a function": "def f():\n    from pkg import compat\n\n    return compat.VJPHiPrimitive\n\n\nBase = f()",
    "getattr": "from pkg import compat\n\nBase = getattr(compat, 'VJPHiPrimitive')\n",
    "probe": "from pkg import compat\n\nBase = getattr(compat, 'VJPHiPrimitive', None)\nassert Base is not None\n",
    "hasattr": "import pkg.compat\n\nassert hasattr(pkg.compat, 'VJPHiPrimitive')\n",
    "vars": "from pkg import compat\n\nBase = vars(compat)['VJPHiPrimitive']\n",
    "__dict__": "from pkg import compat\n\nBase = compat.__dict__['VJPHiPrimitive']\n",
    "star": "from pkg.compat import *\n\nBase = VJPHiPrimitive\n",
    "relative star": "from .compat import *\n\nBase = VJPHiPrimitive\n",
    "import_module": "import importlib\n\nBase = importlib.import_module('pkg.compat').VJPHiPrimitive\n",
    "sys.modules": "import sys\n\nimport pkg.compat\n\nBase = sys.modules['pkg.compat'].VJPHiPrimitive\n",
    "a value": "from pkg import compat as c\n\nm = c\nBase = m.VJPHiPrimitive\n",
}


def _tree(root: Path, reader: str) -> None:
    files = {"pkg/__init__.py": "", "pkg/compat.py": COMPAT, "pkg/reader.py": reader, **STUB}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _migrated(root: Path) -> None:
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root / "pkg")]
    run(jobs, Options(target=(0, 12, 0)), in_place=True, workers=1)


def _imports(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import pkg.reader"], cwd=root, capture_output=True, text=True)


@pytest.mark.parametrize("form", sorted(READERS))
def test_a_name_read_off_the_module_stays_bound(tmp_path, form):
    _tree(tmp_path, READERS[form])
    _migrated(tmp_path)
    compat = (tmp_path / "pkg/compat.py").read_text()
    assert "from jax.experimental.hijax import HiPrim as VJPHiPrimitive" in compat
    assert "def vjp_bwd_retval" in compat
    assert _imports(tmp_path).returncode == 0, _imports(tmp_path).stderr


def test_without_the_rename_every_reader_breaks(tmp_path):
    """Not vacuous: renamed outright, ``compat`` leaves each reader failing at 0.12."""
    for form, reader in READERS.items():
        root = tmp_path / form.replace(" ", "_").replace(".", "_")
        _tree(root, reader)
        compat = (root / "pkg/compat.py").read_text().replace("VJPHiPrimitive", "HiPrim")
        (root / "pkg/compat.py").write_text(compat)
        assert _imports(root).returncode != 0, form


OTHERS = {
    "another module": "import pkg.other as o\n\nBase = o.VJPHiPrimitive\n",
    "imported in a function": "def f():\n    from pkg import other\n\n    return other.VJPHiPrimitive\n\n\nBase = f()",
    "a class": "from pkg.other import VJPHiPrimitive as K\n\n\nclass C(K):\n    pass\n\n\nBase = C.VJPHiPrimitive\n",
}


@pytest.mark.parametrize("form", sorted(OTHERS))
def test_another_objects_attribute_of_that_name_leaves_the_rename_outright(tmp_path, form):
    _tree(tmp_path, OTHERS[form])
    (tmp_path / "pkg/other.py").write_text("class VJPHiPrimitive:\n    VJPHiPrimitive = 1\n")
    _migrated(tmp_path)
    compat = (tmp_path / "pkg/compat.py").read_text()
    assert compat.startswith("from jax.experimental.hijax import HiPrim\n")
    assert _imports(tmp_path).returncode == 0


def test_what_a_file_reads_the_name_off_is_worked_out_once_a_run(tmp_path, monkeypatch):
    """Each renamed module asks every other file holding the name: each file is read
    for it once (the index's ``module_readers``), not once a module that asks."""
    from hijax_migrate.analysis import module_reads

    files = {"pkg/__init__.py": "", "pkg/reader.py": "import os\n\nBase = os.VJPHiPrimitive\n", **STUB}
    files.update({f"pkg/compat{i}.py": COMPAT for i in range(4)})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    made = []
    real = module_reads._readers
    monkeypatch.setattr(module_reads, "_readers", lambda *args: made.append(args) or real(*args))
    _migrated(tmp_path)
    read = sorted(args[1].module for args in made)  # each of the five files holding the name, once
    assert read == ["pkg.compat0", "pkg.compat1", "pkg.compat2", "pkg.compat3", "pkg.reader"]
    assert (tmp_path / "pkg/compat0.py").read_text().startswith("from jax.experimental.hijax import HiPrim\n")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(sorted(READERS)), min_size=1, max_size=3), min_size=1, max_size=3))
def test_drawn_readers_all_find_the_name_after_the_migration(tmp_path_factory, files):
    """Readers drawn from the enumeration, several to a file and several files: each imports
    under jax 0.12 once the tree is migrated (the module they read off keeps the name bound),
    and a second run changes nothing."""
    root = tmp_path_factory.mktemp("tree")
    _tree(root, "")
    for i, forms in enumerate(files):
        (root / f"pkg/reader{i}.py").write_text("\n".join(READERS[form] for form in forms))
    (root / "pkg/reader.py").write_text("".join(f"import pkg.reader{i}\n" for i in range(len(files))))
    _migrated(root)
    assert _imports(root).returncode == 0, _imports(root).stderr
    before = {p: p.read_text() for p in (root / "pkg").glob("*.py")}
    _migrated(root)
    assert {p: p.read_text() for p in (root / "pkg").glob("*.py")} == before


# jax's hijax module reached through another module of the tree (its import of it, a
# re-export of it, a package's submodule): the read is renamed where it stands.
CHAINS = {
    "attribute": ("from jax.experimental import hijax\n", "from pkg import compat\n\nBase = compat.hijax.{}\n"),
    "aliased": ("from jax.experimental import hijax as h\n", "import pkg.compat\n\nBase = pkg.compat.h.{}\n"),
    "two steps": ("from pkg import compat2 as again\n", "from pkg import compat\n\nBase = compat.again.hijax.{}\n"),
    "in a function": (
        "import jax.experimental.hijax\n",
        "import pkg.compat as c\n\n\ndef f():\n    return c.jax.experimental.hijax.{}\n\n\nBase = f()\n",
    ),
    "a base": (
        "from jax.experimental import hijax\n",
        "from pkg import compat\n\n\nclass Op(compat.hijax.{}):\n    pass\n",
    ),
}


@pytest.mark.parametrize("form", sorted(CHAINS))
def test_jax_module_read_through_another_module_is_renamed(tmp_path, form):
    compat, reader = CHAINS[form]
    files = {"pkg/__init__.py": "", "pkg/compat.py": compat, "pkg/compat2.py": "from jax.experimental import hijax\n"}
    files.update({"pkg/reader.py": reader.format("VJPHiPrimitive"), **STUB})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _imports(tmp_path).returncode != 0  # not vacuous: as written, it fails at 0.12
    _migrated(tmp_path)
    assert (tmp_path / "pkg/reader.py").read_text() == reader.format("HiPrim")
    assert _imports(tmp_path).returncode == 0, _imports(tmp_path).stderr


@pytest.mark.parametrize("form", ["getattr", "vars", "__dict__"])
def test_a_reader_by_a_string_off_a_module_of_the_tree_is_not_refused(tmp_path, form):
    """The module it reads keeps the name bound: the reader's key stands, with no error
    (a key read off jax's own module, or off an object not known, is still one)."""
    _tree(tmp_path, READERS[form])
    jobs = [Job(p, p.relative_to(tmp_path).as_posix(), tmp_path) for p in walk(tmp_path / "pkg")]
    outcomes = run(jobs, Options(target=(0, 12, 0)), in_place=False, workers=1)
    assert [(o.file, f.rule) for o in outcomes for f in o.findings if f.severity == "error"] == []
