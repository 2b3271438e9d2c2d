"""The copy of a tree that git hooks keep between runs (hook_tree): it ends
as the tree, file for file, whatever it held before, and it writes only
what changed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hijax_migrate.git import hook_tree
from hijax_migrate.sources import gitrepo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")


def blobs_of(repo_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """path -> blob hash of ``files``, written into git's objects."""
    found = {}
    for path, text in files.items():
        run = subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=repo_dir,
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        found[path] = run.stdout.strip()
    return found


@pytest.fixture
def repo(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path / "r")], check=True)
    return gitrepo.repo_at(tmp_path / "r")


def contents(top: Path) -> dict[str, str]:
    return {
        p.relative_to(top).as_posix(): p.read_text()
        for p in top.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(top).parts
    }


def sync(repo, top: Path, files: dict[str, str]) -> None:
    hook_tree.sync(repo, blobs_of(Path(repo.working_tree_dir), files), top, top.parent / "manifest.json")


def test_the_copy_becomes_the_tree_and_untouched_files_are_not_written_again(repo, tmp_path):
    top = tmp_path / "copy" / "tree"
    first = {"pkg/__init__.py": "", "pkg/a.py": "a = 1\n", "pkg/gone/b.py": "b = 1\n", "keep.py": "k\n"}
    sync(repo, top, first)
    assert contents(top) == first and (top / ".git").is_dir()
    kept = os.stat(top / "keep.py")
    second = {"pkg/__init__.py": "", "pkg/a.py": "a = 2\n", "keep.py": "k\n", "new/c.py": "c\n"}
    sync(repo, top, second)
    assert contents(top) == second
    assert not (top / "pkg" / "gone").exists()  # an empty folder would be a namespace package
    again = os.stat(top / "keep.py")
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)


def test_a_file_touched_by_someone_else_is_written_again(repo, tmp_path):
    top = tmp_path / "copy" / "tree"
    files = {"a.py": "a = 1\n", "b.py": "b = 1\n"}
    sync(repo, top, files)
    (top / "a.py").write_text("a = 1  # edited by hand\n")
    (top / "stray.py").write_text("from jax.experimental.hijax import VJPHiPrimitive\n")
    (top / "b.py").unlink()
    (top / "b.py").symlink_to(top / "a.py")  # a link: never written through
    sync(repo, top, files)
    assert contents(top) == files and not (top / "b.py").is_symlink()


def test_an_edit_of_the_same_size_with_its_time_set_back_is_seen(repo, tmp_path):
    top = tmp_path / "copy" / "tree"
    files = {"a.py": "a = 1\n"}
    sync(repo, top, files)
    before = os.stat(top / "a.py")
    with open(top / "a.py", "r+") as handle:  # in place: same inode, same size
        handle.write("a = 2\n")
    os.utime(top / "a.py", ns=(before.st_atime_ns, before.st_mtime_ns))
    sync(repo, top, files)
    assert contents(top) == files


def test_a_copy_cut_off_half_way_is_written_whole(repo, tmp_path):
    top = tmp_path / "copy" / "tree"
    files = {"a.py": "a = 1\n"}
    sync(repo, top, files)
    (top.parent / "manifest.json").unlink()  # as if a run died while writing
    (top / "a.py").write_text("half")
    os.utime(top / "a.py", ns=(1, 1))
    sync(repo, top, files)
    assert contents(top) == files


@pytest.mark.parametrize("manifest", ["not json", "[1, 2]", '{"a.py": "not a list"}'])
def test_a_corrupt_manifest_is_no_manifest(repo, tmp_path, manifest):
    top = tmp_path / "copy" / "tree"
    files = {"a.py": "a = 1\n"}
    sync(repo, top, files)
    (top.parent / "manifest.json").write_text(manifest)
    (top / "extra.py").write_text("x\n")
    sync(repo, top, files)
    assert contents(top) == files


def test_a_copy_in_use_by_another_hook_is_not_shared(repo, monkeypatch, tmp_path):
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    blobs = blobs_of(Path(repo.working_tree_dir), {"a.py": "a = 1\n"})
    with hook_tree.checked_out(repo, blobs) as (first, kept):
        assert kept and first.is_relative_to(hook_tree.home(repo))
        with hook_tree.checked_out(repo, blobs) as (second, kept_too):
            assert not kept_too and second != first and contents(second) == {"a.py": "a = 1\n"}
    with hook_tree.checked_out(repo, blobs) as (again, kept):
        assert kept and again == first  # the lock went with the first check


def test_a_cache_folder_that_cannot_be_written_leaves_a_temporary_copy(repo, monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(blocked))
    blobs = blobs_of(Path(repo.working_tree_dir), {"a.py": "a = 1\n"})
    with hook_tree.checked_out(repo, blobs) as (top, kept):
        assert not kept and contents(top) == {"a.py": "a = 1\n"}
    assert not top.exists()


def test_the_copy_of_a_repository_that_is_gone_is_removed_by_the_next_hook(tmp_path, monkeypatch):
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    repos = []
    for name in ("kept", "gone", "busy"):
        subprocess.run(["git", "init", "-q", str(tmp_path / name)], check=True)
        repos.append(gitrepo.repo_at(tmp_path / name))
    homes = [hook_tree.home(repo) for repo in repos]
    for repo in repos[1:]:
        with hook_tree.checked_out(repo, blobs_of(Path(repo.working_tree_dir), {"a.py": "a = 1\n"})):
            pass
    shutil.rmtree(tmp_path / "gone")
    shutil.rmtree(tmp_path / "busy")
    with hook_tree.checked_out(repos[2], {}):  # a hook of that repository still running
        with hook_tree.checked_out(repos[0], blobs_of(Path(repos[0].working_tree_dir), {"b.py": "b\n"})):
            pass
    assert homes[0].is_dir() and not homes[1].exists() and homes[2].is_dir()


def test_a_file_that_becomes_a_folder_and_back(repo, tmp_path):
    top = tmp_path / "copy" / "tree"
    for files in ({"m.py": "m = 1\n"}, {"m.py/inner.py": "i = 1\n"}, {"m.py": "m = 2\n"}):
        sync(repo, top, files)
        assert contents(top) == files
