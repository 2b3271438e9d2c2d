"""Primitives found across the files of a tree, and files found in it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk

OLD_RULE = "    def vjp_bwd(self, res, g):\n        return (g,)\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def migrate_tree(root: Path, **options) -> dict[str, str]:
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    options = {"target": (0, 10, 0), **options}
    outcomes = run(jobs, Options(**options), in_place=False, workers=1)
    return {o.file: o.diff for o in outcomes if o.diff}


def test_chain_through_relative_and_absolute_imports(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Base(VJPHiPrimitive):\n"
            "    pass\n",
            "pkg/mid.py": "from .base import Base\n\nclass Mid(Base):\n    pass\n",  # names nothing hijax
            "pkg/leaf.py": f"from pkg.mid import Mid\n\nclass Leaf(Mid):\n{OLD_RULE}",
            "pkg/sub/__init__.py": "",
            "pkg/sub/deep.py": f"from ..mid import Mid as M\n\nclass Deep(M):\n{OLD_RULE}",
        },
    )
    changed = migrate_tree(tmp_path)
    assert sorted(changed) == ["pkg/leaf.py", "pkg/sub/deep.py"]


def test_helper_module_reexporting_a_version_switched_base(tmp_path):
    write(
        tmp_path,
        {
            "compat.py": (
                "import jax\nfrom jax.experimental import hijax\n\n"
                "Base = hijax.VJPHiPrimitive if jax.__version_info__ <= (0, 11, 1) else hijax.HiPrim\n"
            ),
            "ops.py": f"from compat import Base\n\nclass Op(Base):\n{OLD_RULE}",
            "quant.py": f"class Quant:\n{OLD_RULE}",
        },
    )
    assert sorted(migrate_tree(tmp_path)) == ["ops.py"]


def test_lookalike_base_from_another_file_is_not_a_primitive(tmp_path):
    write(
        tmp_path,
        {
            "proto.py": "class VjpProtocol:\n    pass\n",
            "quant.py": f"from proto import VjpProtocol\n\nclass Quant(VjpProtocol):\n{OLD_RULE}",
        },
    )
    assert migrate_tree(tmp_path) == {}


def test_walk_honours_gitignore_venvs_and_symlinks(tmp_path):
    write(
        tmp_path,
        {
            ".gitignore": "ignored/\n*.gen.py\n",
            "keep.py": "",
            "x.gen.py": "",
            "ignored/a.py": "",
            "build/b.py": "",
            "node_modules/c.py": "",
            "env/pyvenv.cfg": "",
            "env/lib.py": "",
            "sub/.gitignore": "local.py\n",
            "sub/local.py": "",
            "sub/kept.py": "",
            ".git/info/exclude": "private.py\n",
            "private.py": "",
        },
    )
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "o.py").write_text("")
    os.symlink(outside, tmp_path / "link_out")
    os.symlink(tmp_path / "sub", tmp_path / "link_loop")
    found = [p.relative_to(tmp_path).as_posix() for p in walk(tmp_path)]
    assert found == ["keep.py", "link_loop/kept.py"] or found == ["keep.py", "sub/kept.py"]


def test_src_layout_base_found_from_the_repository_root(tmp_path):
    write(
        tmp_path,
        {
            "src/pkg/__init__.py": "",
            "src/pkg/bases.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n"
            "class Base(VJPHiPrimitive):\n    pass\n",
            "src/pkg/ops.py": f"from pkg.bases import Base\n\nclass Op(Base):\n{OLD_RULE}",
        },
    )
    assert sorted(migrate_tree(tmp_path)) == ["src/pkg/ops.py"]


def test_base_in_an_ignored_folder_still_resolves(tmp_path):
    # The walk skips build/ output, but an import of a module there is still
    # followed: what is migrated is filtered, what is resolved is not.
    write(
        tmp_path,
        {
            "vendor_build/__init__.py": "",
            "vendor_build/bases.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n"
            "class Base(VJPHiPrimitive):\n    pass\n",
            "ops.py": f"from vendor_build.bases import Base\n\nclass Op(Base):\n{OLD_RULE}",
            ".gitignore": "vendor_build/\n",
        },
    )
    assert sorted(migrate_tree(tmp_path)) == ["ops.py"]


def test_a_star_import_of_jax_binds_the_bases_of_its_own_module_only(tmp_path):
    """Where jax's star import stands, its bases are decided; a name another
    module takes from it may be gone once jax drops it: that class is left."""
    write(
        tmp_path,
        {
            "compat.py": "from jax.experimental.hijax import *\n",
            "ops.py": f"from compat import VJPHiPrimitive\n\n\nclass Far(VJPHiPrimitive):\n{OLD_RULE}",
            "here.py": f"from jax.experimental.hijax import *\n\n\nclass Near(VJPHiPrimitive):\n{OLD_RULE}",
        },
    )
    assert sorted(migrate_tree(tmp_path, strategy="rename")) == ["here.py"]


def test_a_base_another_module_imports_stays_bound_where_it_is_imported(tmp_path):
    write(
        tmp_path,
        {
            "compat.py": "from jax.experimental.hijax import VJPHiPrimitive\n",
            "ops.py": f"from compat import VJPHiPrimitive\n\n\nclass Op(VJPHiPrimitive):\n{OLD_RULE}",
            "alone.py": "from jax.experimental.hijax import VJPHiPrimitive\n\nok = VJPHiPrimitive\n",
        },
    )
    diffs = migrate_tree(tmp_path, target=(0, 12, 0))
    assert "+from jax.experimental.hijax import HiPrim as VJPHiPrimitive" in diffs["compat.py"]
    assert "+ok = HiPrim" in diffs["alone.py"]  # imported by no other module: renamed
    edits = [line for line in diffs["ops.py"].splitlines() if line.startswith(("+", "-"))]
    assert "+    def vjp_bwd_retval(self, res, g):" in edits and not any("import" in line for line in edits)


@pytest.mark.parametrize("words", [["Mul", "MulBase", "Base", "ops", "M", "Nothing"], ["Nothing", "Mul"]])
def test_the_index_of_names_finds_what_the_passes_find(tmp_path, words):
    """A run over many candidates answers its searches for subclasses from one
    index of every file's names, not a pass of the tree a name: the same files."""
    from hijax_migrate.analysis.index import Index
    from test_tree_searches import NAMERS, every_file_naming

    write(tmp_path, NAMERS)
    for passes in (0, 1, 2):
        index = Index(roots=(tmp_path,), search_passes=passes)
        for word in words:
            found = sorted(path.name for path, _, _ in index.naming_files(word))
            assert found == every_file_naming(tmp_path, word), (passes, word)
