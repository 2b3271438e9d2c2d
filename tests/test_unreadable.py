"""Nothing is skipped silently: a file or folder the tool cannot read, walked
or named, is one error line naming it, the run goes on over the rest, and
the exit code is 3 ("a file could not be processed"), never 1 ("changes
pending") and never a traceback.

Permissions are real where the tests run as an ordinary user (chmod 000).
Root reads through any mode, so there the same refusals are made in this
process: ``os.scandir``, ``os.stat``, ``os.lstat`` and ``open`` raise
EACCES for what is locked, as the kernel would for another user.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

import pytest
from hijax_migrate.cli import EXIT_FAILED, main

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
"""
MIGRATED = "def vjp_bwd_retval(self, res, g):"


class Locks:
    """Folders that cannot be listed or entered, files that cannot be opened."""

    def __init__(self, monkeypatch):
        self.monkeypatch, self.paths, self.patched = monkeypatch, [], False

    def lock(self, path: Path) -> None:
        if os.geteuid() != 0:
            path.chmod(0)
            self.paths.append(path)
            return
        self.paths.append(path.resolve())
        if not self.patched:
            self._patch()

    def _denied(self, name, inside_only: bool) -> bool:
        if isinstance(name, (int, bytes)):
            return False
        real = os.path.abspath(os.fspath(name))
        return any(
            real.startswith(f"{locked}/") or (not inside_only and real == str(locked))
            for locked in map(str, self.paths)
        )

    def _patch(self) -> None:
        self.patched = True
        for module, name, inside_only in [
            (os, "scandir", False),
            (os, "stat", True),
            (os, "lstat", True),
            (os, "open", False),
            (builtins, "open", False),
            (io, "open", False),
        ]:
            self.monkeypatch.setattr(module, name, self._guarded(getattr(module, name), inside_only))

    def _guarded(self, real, inside_only: bool):
        def guarded(path=".", *args, **kwargs):
            if self._denied(path, inside_only):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
            return real(path, *args, **kwargs)

        return guarded

    def undo(self) -> None:
        if os.geteuid() != 0:
            for path in self.paths:
                path.chmod(0o755)


@pytest.fixture
def locks(monkeypatch):
    made = Locks(monkeypatch)
    yield made
    made.undo()


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    for folder in ("pkg", "pkg/locked", "other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "ops.py").write_text(OLD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(["--no-cache", "--target-jax", "0.12", "-j", "1", *args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("mode", ["--check", "--in-place"])
def test_an_unreadable_folder_in_a_walk_is_one_error_and_the_rest_is_done(tree, locks, capsys, mode):
    locks.lock(tree / "pkg" / "locked")
    code, err = run(capsys, mode, ".")
    assert code == EXIT_FAILED, err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    message = f"cannot read this folder: {os.strerror(errno.EACCES)}; the files in it were not checked"
    assert errors == [f"error: pkg/locked: {message}"]
    assert "2 files could not be processed" not in err and "1 file could not be processed" in err
    if mode == "--in-place":  # the readable files were still migrated
        assert MIGRATED in (tree / "pkg" / "ops.py").read_text()
        assert MIGRATED in (tree / "other" / "ops.py").read_text()


def test_an_unreadable_folder_named_is_an_error_not_a_traceback(tree, locks, capsys):
    locks.lock(tree / "pkg" / "locked")
    code, err = run(capsys, "--check", "pkg/locked", "other")
    assert code == EXIT_FAILED
    assert "error: pkg/locked: cannot read this folder" in err and "Traceback" not in err
    assert "other/ops.py" not in err  # the other path was checked: it only needs migrating


def test_a_file_under_an_unsearchable_folder_named_is_an_error(tree, locks, capsys):
    locks.lock(tree / "pkg" / "locked")
    code, err = run(capsys, "--check", "pkg/locked/ops.py", "pkg/locked/absent.py")
    assert code == EXIT_FAILED
    assert "error: pkg/locked/ops.py: cannot read" in err
    assert "error: pkg/locked/absent.py: cannot read" in err


def test_an_unreadable_file_walked_or_named_is_an_error(tree, locks, capsys):
    locks.lock(tree / "other" / "ops.py")
    for paths in (["."], ["other/ops.py"]):
        code, err = run(capsys, "--check", *paths)
        assert code == EXIT_FAILED, paths
        assert [line for line in err.splitlines() if line.startswith("error:")] == [
            f"error: other/ops.py: cannot read: {os.strerror(errno.EACCES)}"
        ]


def test_an_unreadable_root_folder_is_reported(tree, locks, capsys):
    locks.lock(tree / "pkg")
    code, err = run(capsys, "--check", "pkg")
    assert code == EXIT_FAILED
    assert "error: pkg: cannot read this folder" in err


def test_a_readable_tree_is_unchanged_by_all_this(tree, capsys):
    code, err = run(capsys, "--check", ".")
    assert code == 1 and "error:" not in err
