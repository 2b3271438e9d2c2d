"""Symlinks (issue 41, docs/safety.md): no byte is ever written outside the
project. A path named that resolves outside the project root is skipped with
a warning naming it; a walk follows no link out of the folder walked (a
source file's link is named in a warning) and follows a link inside it once.
``--verify`` without ``--in-place`` leaves a link's outside target as it was,
with and without git; so does ``--in-place``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import faults
from verify_helpers import git

TOOL = faults.TOOL


def layout(tmp_path: Path, repo: bool) -> tuple[Path, Path]:
    """A project whose pkg/base1.py is an absolute link to a file outside it."""
    files = faults.family_files(1)
    outside = tmp_path / "outside" / "base1.py"
    outside.parent.mkdir()
    outside.write_text(files["pkg/base1.py"])
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "sub1.py").write_text(files["pkg/sub1.py"])
    os.symlink(outside, root / "pkg" / "base1.py")
    if repo:
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return root, outside


def tool(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TOOL, *args], cwd=root, env=faults.env(), capture_output=True, text=True, check=False)


@pytest.mark.parametrize("repo", [True, False], ids=["git", "no-git"])
@pytest.mark.parametrize("paths", [["pkg/base1.py", "pkg/sub1.py"], ["."]], ids=["named", "walked"])
def test_verify_never_writes_a_links_target_outside_the_project(tmp_path, repo, paths):
    root, outside = layout(tmp_path, repo)
    before = outside.read_bytes()
    done = tool(root, "--verify", f"{sys.executable} -c pass", *paths)
    assert "Traceback" not in done.stderr
    assert outside.read_bytes() == before, done.stderr
    assert "outside" in done.stderr and "base1.py" in done.stderr  # the warning names it


@pytest.mark.parametrize("repo", [True, False], ids=["git", "no-git"])
def test_in_place_never_writes_outside_the_project(tmp_path, repo):
    root, outside = layout(tmp_path, repo)
    before = outside.read_bytes()
    done = tool(root, "--in-place", "pkg/base1.py")
    assert outside.read_bytes() == before
    lines = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert any("pkg/base1.py" in line and "outside the project" in line for line in lines), done.stderr
    assert done.returncode == 0, done.stderr


def test_a_link_inside_the_project_is_followed_once(tmp_path):
    files = faults.family_files(1)
    root = tmp_path / "proj"
    (root / "shared").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / ".git").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "shared" / "base1.py").write_text(files["pkg/base1.py"])
    (root / "pkg" / "sub1.py").write_text(files["pkg/sub1.py"])
    os.symlink("../shared/base1.py", root / "pkg" / "base1.py")
    done = tool(root, "--in-place", ".")
    assert done.returncode == 0, done.stderr
    assert (root / "pkg" / "base1.py").is_symlink()  # a link stays a link: its target is written
    assert (root / "shared" / "base1.py").read_text() != files["pkg/base1.py"]
    assert (root / "pkg" / "sub1.py").read_text() != files["pkg/sub1.py"]
    assert "warning" not in done.stderr


def test_one_folder_walked_names_each_file_once_as_every_path_given_would(tmp_path):
    """A run over one folder takes its walk's files as they come (the walk never reaches
    a file twice: links inside, a link to a folder, a loop), sorted as the jobs of several
    paths are once each file's real path has made them one a file."""
    from hijax_migrate.command import config
    from hijax_migrate.command.usage import settings_of
    from hijax_migrate.run import selection

    root = tmp_path / "proj"
    (root / "pkg" / "deep").mkdir(parents=True)
    (root / ".git").mkdir()
    for name in ("pkg/a.py", "pkg/b.py", "pkg/deep/c.py", "top.py"):
        (root / name).write_text("x = 1\n")
    os.symlink("a.py", root / "pkg" / "alias.py")
    os.symlink("deep", root / "pkg" / "again")
    os.symlink("..", root / "pkg" / "deep" / "loop")
    here = os.getcwd()
    try:
        os.chdir(root)
        walked = selection.jobs_for(config.read(settings_of(paths=["."])))
        assert walked == selection._once(walked)
        assert [job.display for job in walked] == sorted(job.display for job in walked)
        assert len({os.path.realpath(job.path) for job in walked}) == len(walked) == 4
        several = selection.jobs_for(config.read(settings_of(paths=[".", "pkg", "pkg/a.py"])))
        assert [job.display for job in several] == [job.display for job in walked]
    finally:
        os.chdir(here)
