"""The package as pip sees it: complete metadata, an sdist that holds what
the tests need (golden cases, hooks, changelog, docs), and dependencies that
are exactly those the code imports."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PACKAGE = ROOT / "codemods" / "hijax_migrate"
# distribution name -> the module it is imported as
MODULES = {
    "libcst": "libcst",
    "pathspec": "pathspec",
    "GitPython": "git",
    "rich": "rich",
    "packaging": "packaging",
    "tomli": "tomli",
    "platformdirs": "platformdirs",
    "markdown-it-py": "markdown_it",
}
SDIST_NEEDS = [
    "golden/",
    "tests/",
    "docs/",
    ".pre-commit-hooks.yaml",
    "CHANGELOG.md",
    "LICENSE",
    "ARCHITECTURE.md",
    "README.md",
    "benchmarks/",
]


def test_metadata_is_complete():
    for key in (
        "name",
        "version",
        "description",
        "readme",
        "requires-python",
        "license",
        "authors",
        "keywords",
        "classifiers",
        "dependencies",
        "scripts",
    ):
        assert PROJECT.get(key), key
    oldest = PROJECT["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {oldest}" in PROJECT["classifiers"]


def test_the_sdist_takes_what_the_tests_and_hooks_need():
    manifest = (ROOT / "MANIFEST.in").read_text()
    taken = {
        word for line in manifest.splitlines() if line.startswith(("include ", "graft ")) for word in line.split()[1:]
    }
    for need in SDIST_NEEDS:
        assert need.rstrip("/") in taken, need


def _third_party_imports() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names and name != "hijax_migrate"}


def test_dependencies_are_exactly_what_the_code_imports():
    declared = {re.match(r"[\w.-]+", dep).group(0) for dep in PROJECT["dependencies"]}
    imported = _third_party_imports() - {"black"}  # the [black] extra, imported for --black only
    assert {MODULES[name] for name in declared} == imported
    assert "black" in PROJECT["optional-dependencies"]["black"][0]


@pytest.mark.skipif(
    importlib.util.find_spec("build") is None,
    reason="`build` is not installed here (pip install build): the sdist is not built",
)
def test_the_sdist_builds_a_wheel(tmp_path):
    """``python -m build``: the sdist, then the wheel from it (build's own
    order), with build's isolated environment (it needs the index)."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    sdist = next(tmp_path.glob("*.tar.gz"))
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert all(any(name.startswith(need) for name in names) for need in SDIST_NEEDS)
    assert next(tmp_path.glob("*.whl"))
