"""The README's own steps in one clone (issue 41): ``pip install .`` leaves
setuptools' build folder in the clone; named ``build/`` it shadowed the
``build`` package for ``python -m build`` (and fooled the skip of
``test_the_sdist_builds_a_wheel``). pyproject.toml names it otherwise."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDED = ["pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "codemods"]


def test_pip_install_dot_leaves_no_build_folder_to_shadow_the_build_package(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in NEEDED:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, clone / name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path / "site"), "."],
        cwd=clone,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert not (clone / "build").exists()
    ask = "import importlib.util as u; s = u.find_spec('build'); print(s.origin if s else 'absent')"
    found = subprocess.run(
        [sys.executable, "-c", ask],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert found == "absent" or found.endswith("__init__.py"), found  # never a folder of the clone
