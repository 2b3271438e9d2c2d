"""Generated sequences of pushes (files added, removed, turned into folders
and links, modes changed) in two repositories and a worktree of one, with
the kept copies touched in between (files edited, linked, removed, a stale
or corrupt manifest, the copy's folder a link): after each push, the copy
the hook checks holds exactly the pushed tree's regular files, as ``git
archive`` gives them, and nothing outside the copy changes."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from unittest import mock

import pytest
from hijax_migrate.git import hook_tree
from hijax_migrate.sources import gitrepo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")

# Paths that collide: a file here is a folder there (m.py, pkg), a link or a file.
PATHS = [
    "a.py",
    "m.py",
    "m.py/inner.py",
    "pkg/__init__.py",
    "pkg/m.py",
    "pkg/sub/x.pyi",
    "pkg",
    "pyproject.toml",
    "notes.md",
]
TEXTS = ["a = 1\n", "a = 2\n", "b = 1\n", "", "import pkg\n"]
SELECTED = (".py", ".pyi", ".toml")  # what the hook writes out: Python files and settings
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.symlinks=true"]


def _consistent(entries: dict[str, tuple]) -> dict[str, tuple]:
    """No path both a file and a folder: the first drawn wins."""
    kept: dict[str, tuple] = {}
    for path, entry in entries.items():
        if not any(path.startswith(f"{other}/") or other.startswith(f"{path}/") for other in kept):
            kept[path] = entry
    return kept


# a file: ("file", text, executable) or ("link", target)
_ENTRY = st.one_of(
    st.tuples(st.just("file"), st.sampled_from(TEXTS), st.booleans()),
    st.tuples(st.just("link"), st.sampled_from(["a.py", "../outside.py", "pkg"])),
)
_REPO = st.sampled_from([0, 0, 0, 1, 2])  # mostly one, so that its pushes and touches meet
_PUSH = st.builds(
    lambda repo, files: ("push", repo, _consistent(files)),
    _REPO,
    st.dictionaries(st.sampled_from(PATHS), _ENTRY, max_size=6),
)
_TOUCH = st.tuples(
    st.just("touch"),
    _REPO,
    st.sampled_from(
        [
            "edit",
            "utime",
            "link",
            "delete",
            "stray",
            "folder",
            "chmod",
            "manifest-corrupt",
            "manifest-stale",
            "manifest-gone",
            "tree-link",
            "origin-link",
        ]
    ),
    st.integers(0, 20),
)


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """Two repositories and a worktree of the first; a folder outside all of them."""
    root = tmp_path_factory.mktemp("hook-trees")
    for name in ("one", "two"):
        subprocess.run([*GIT, "init", "-q", str(root / name)], check=True)
        subprocess.run([*GIT, "commit", "-q", "--allow-empty", "-m", "start"], cwd=root / name, check=True)
    subprocess.run([*GIT, "worktree", "add", "-q", "-b", "side", str(root / "three")], cwd=root / "one", check=True)
    return root


def _write_work_tree(top: Path, files: dict[str, tuple]) -> None:
    for entry in top.iterdir():
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    for path, entry in files.items():
        target = top / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry[0] == "link":
            target.symlink_to(entry[1])
        else:
            target.write_text(entry[1])
            target.chmod(0o755 if entry[2] else 0o644)


def push(work: Path, files: dict[str, tuple]) -> str:
    _write_work_tree(work, files)
    subprocess.run([*GIT, "add", "-A"], cwd=work, check=True)
    subprocess.run([*GIT, "commit", "-q", "--allow-empty", "-m", "push"], cwd=work, check=True)
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=work, check=True, capture_output=True, text=True
    ).stdout.strip()


def archived(work: Path, commit: str) -> dict[str, bytes]:
    """The regular files ``git archive`` gives of the commit, those the hook writes out."""
    tar = subprocess.run(
        ["git", "archive", "--format=tar", f"{commit}^{{tree}}"], cwd=work, check=True, capture_output=True
    ).stdout  # of the tree: no header naming the commit
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        return {
            member.name: archive.extractfile(member).read()
            for member in archive.getmembers()
            if member.isreg() and member.name.endswith(SELECTED)
        }


def held(top: Path) -> tuple[dict[str, bytes], list[str]]:
    """(each file, by path; whatever else is there: links, empty folders)."""
    files, other = {}, []
    for folder, dirs, names in os.walk(top):
        rel = Path(folder).relative_to(top).as_posix()
        if rel == ".git":
            continue
        if not dirs and not names and folder != str(top):
            other.append(f"empty {rel}")
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            key = Path(path).relative_to(top).as_posix()
            if os.path.islink(path) or not os.path.isfile(path):
                other.append(f"link {key}")
            else:
                files[key] = Path(path).read_bytes()
    return files, other


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): (
            b"link:" + os.readlink(p).encode() if p.is_symlink() else p.read_bytes() if p.is_file() else b"folder"
        )
        for p in folder.rglob("*")
    }


def _write_stray(path: Path) -> None:
    """A file someone adds to the copy: where a link of an earlier touch stands, in its place (writing
    through it would change the file outside the copy that the test checks the hooks never touch)."""
    path.unlink(missing_ok=True)
    path.write_text("stray\n")


def touch(copy: Path, kind: str, pick: int, outside: Path, manifests: list[str]) -> None:
    """Someone else's change to a kept copy between two hooks."""
    top, manifest = copy / "tree", copy / "manifest.json"
    if top.is_symlink() and kind != "origin-link":  # already a link outside: nothing of the copy's to touch
        return
    files = sorted(p for p in top.rglob("*") if p.is_file() and not p.is_symlink() and ".git" not in p.parts)
    path = files[pick % len(files)] if files else None
    if kind.startswith("manifest-"):
        if manifest.exists() or kind != "manifest-gone":
            manifest.unlink(missing_ok=True)
            if kind == "manifest-corrupt":
                manifest.write_text(["not json", "[1]", '{"a.py": 1}'][pick % 3])
            elif kind == "manifest-stale" and manifests:
                manifest.write_text(manifests[pick % len(manifests)])
    elif kind == "origin-link":  # what names the copy's repository
        (copy / "origin").unlink(missing_ok=True)
        (copy / "origin").symlink_to(outside / "precious.py")
    elif kind == "tree-link":
        shutil.rmtree(top, ignore_errors=True)
        top.symlink_to(outside)
    elif path is None:
        _write_stray(top / "stray.py")
    elif kind == "edit":  # in place, same size, its time set back
        before = path.stat()
        path.write_bytes(bytes(reversed(path.read_bytes())) or b"")
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    elif kind == "utime":
        os.utime(path, ns=(1, 1))
    elif kind == "link":
        path.unlink()
        path.symlink_to(outside / "precious.py")
    elif kind == "delete":
        path.unlink()
    elif kind == "stray":
        _write_stray(path.parent / "stray.py")
    elif kind == "folder":
        path.unlink()
        path.mkdir()
        (path / "inner.py").write_text("inner\n")
    elif kind == "chmod":
        path.chmod(0o444)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.one_of(_PUSH, _TOUCH), min_size=1, max_size=10))
def test_the_kept_copy_is_the_pushed_tree_after_any_pushes_and_touches(place, steps):
    works = [place / "one", place / "two", place / "three"]
    outside = place / "outside"
    shutil.rmtree(outside, ignore_errors=True)
    outside.mkdir()
    (outside / "precious.py").write_text("precious\n")
    (outside / "a.py").write_text("kept\n")
    before = snapshot(outside)
    cache = place / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    manifests: list[str] = []
    with mock.patch.dict(os.environ, {"HIJAX_MIGRATE_CACHE_DIR": str(cache)}):
        repos = [gitrepo.repo_at(work) for work in works]
        for step in steps:
            if step[0] == "touch":
                _, which, kind, pick = step
                copy = hook_tree.home(repos[which])
                if (copy / "tree").is_dir():
                    touch(copy, kind, pick, outside, manifests)
                continue
            _, which, files = step
            commit = push(works[which], files)
            wanted = {
                path: blob for path, blob in gitrepo.tree_files(repos[which], commit).items() if path.endswith(SELECTED)
            }
            with hook_tree.checked_out(repos[which], wanted) as (top, kept):
                assert kept and top == (hook_tree.home(repos[which]) / "tree").resolve()
                assert held(top) == (archived(works[which], commit), [])
            manifests.append((hook_tree.home(repos[which]) / "manifest.json").read_text())
            assert snapshot(outside) == before


# The cases that broke it, kept.
def _blobs(place: Path, files: dict[str, str]) -> dict[str, str]:
    return {
        path: subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=place / "one",
            input=text,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
        for path, text in files.items()
    }


def test_a_link_in_place_of_the_copy_is_removed_not_followed(place, tmp_path):
    repo, outside = gitrepo.repo_at(place / "one"), tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("precious\n")
    top = tmp_path / "copy" / "tree"
    hook_tree.sync(repo, _blobs(place, {"a.py": "a\n"}), top, top.parent / "manifest.json")
    shutil.rmtree(top)
    top.symlink_to(outside)
    hook_tree.sync(repo, _blobs(place, {"a.py": "a\n"}), top, top.parent / "manifest.json")
    assert held(top) == ({"a.py": b"a\n"}, []) and not top.is_symlink()
    assert snapshot(outside) == {"notes.txt": b"precious\n"}


def test_a_folder_someone_emptied_goes(place, tmp_path):
    repo, top = gitrepo.repo_at(place / "one"), tmp_path / "copy" / "tree"
    hook_tree.sync(
        repo, _blobs(place, {"m.py/inner.py": "i\n", "pkg/sub/x.py": "x\n"}), top, top.parent / "manifest.json"
    )
    (top / "m.py" / "inner.py").unlink()
    (top / "pkg" / "sub" / "x.py").unlink()
    hook_tree.sync(repo, _blobs(place, {"a.py": "a\n"}), top, top.parent / "manifest.json")
    assert held(top) == ({"a.py": b"a\n"}, [])
    assert not (top / "m.py").exists() and not (top / "pkg").exists()  # a namespace package each


def test_a_tree_of_no_files_is_an_empty_copy(place, tmp_path):
    top = tmp_path / "copy" / "tree"
    hook_tree.sync(gitrepo.repo_at(place / "one"), {}, top, top.parent / "manifest.json")
    assert held(top) == ({}, []) and (top / ".git").is_dir()
