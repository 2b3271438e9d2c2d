"""Submodules and nested repositories (issue 41): one answer, shared by the
walk and the hooks, as black and ruff give it: a nested repository below a
folder walked is not descended into, unless named on the command line. A
commit adding a submodule of old-API code passes the pre-commit hook and
``--check .`` alike, ``-i .`` writes nothing in it, and ``--check SUB``
(named) checks it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hijax_migrate.cli import main
from hijax_migrate.git import gitcheck
from hijax_migrate.git.hooks import _verdict
from hijax_migrate.sources.gitrepo import repo_at

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import faults

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
OLD = faults.family_files(0)["pkg/base0.py"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "protocol.file.allow=always", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def identity(monkeypatch, tmp_path):
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "t")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "t@example.com")
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))


def run(root: Path, *args: str) -> int:
    previous = os.getcwd()
    os.chdir(root)
    try:
        return main(["--no-cache", "-q", "-j", "1", "--target-jax", "0.10", *args])
    finally:
        os.chdir(previous)


def hook(root: Path) -> int:
    previous = os.getcwd()
    os.chdir(root)
    try:
        repo = repo_at(root)
        results = list(gitcheck.run_checks(repo, gitcheck.staged(repo)))
        return _verdict("pre-commit", [(c.what, o) for c, outcomes in results for o in outcomes])
    finally:
        os.chdir(previous)


def repository(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def test_a_submodule_gets_one_verdict_from_the_hook_and_the_command_line(tmp_path, identity, capsys):
    repository(tmp_path / "vendored", {"old/base.py": OLD})
    root = repository(tmp_path / "main", {"pkg/__init__.py": "", "pkg/mod.py": "x = 1\n"})
    git(root, "submodule", "add", "-q", str(tmp_path / "vendored"), "third_party/vendored")
    hooked, checked = hook(root), run(root, "--check", ".")
    assert hooked == checked == 0, capsys.readouterr()
    assert run(root, "--in-place", ".") == 0
    assert (root / "third_party/vendored/old/base.py").read_text() == OLD  # nothing written in it
    assert run(root, "--check", "third_party/vendored") == 1  # named: checked


def test_a_nested_clone_is_not_walked_unless_named(tmp_path, identity, capsys):
    root = repository(tmp_path / "main", {"pkg/__init__.py": "", ".gitignore": "nested/\n"})
    repository(root / "nested", {"old/base.py": OLD})
    assert run(root, "--check", ".") == 0
    assert run(root, "--check", "nested") == 1
    assert run(root / "nested", "--check", ".") == 1
    capsys.readouterr()


def test_a_nested_repository_in_a_tree_without_git_is_not_walked(tmp_path, capsys):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 1\n")
    (tmp_path / "clone" / ".git").mkdir(parents=True)
    (tmp_path / "clone" / "base.py").write_text(OLD)
    assert run(tmp_path, "--check", ".") == 0
    assert run(tmp_path, "--check", "clone") == 1
    capsys.readouterr()
