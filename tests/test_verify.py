"""``--verify CMD``, run as a user runs it, on small projects whose tests need
no jax: what is compared, what is reported, what is left behind (nothing)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from verify_helpers import PLAIN_PROJECT, UTIL, git, git_state, group_members, project, tool, tree_bytes

PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider -p no:randomly tests"
FLAGS = ("--target-jax", "0.12", "--no-cache")


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    return project(tmp_path / "proj", PLAIN_PROJECT)


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    (tmp_path / "tmp").mkdir()
    return tmp_path / "tmp"


def verify_json(root: Path, tmp: Path, command: str, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    run = tool(*FLAGS, "--verify", command, "--output-format", "json", *args, ".", cwd=root, tmp=tmp)
    return run, json.loads(run.stdout) if run.stdout.strip() else {}


def test_tests_that_touch_no_primitive_are_unchanged_and_nothing_is_touched(plain, tmp):
    (plain / "pkg" / "util.py").write_text(UTIL + "# edited, not committed\n")
    git(plain, "add", "pkg/util.py")  # staged: the index holds something git's HEAD does not
    (plain / "notes.txt").write_text("untracked\n")
    state, files = git_state(plain), tree_bytes(plain)
    run, doc = verify_json(plain, tmp, PYTEST)
    assert run.returncode == 0, run.stderr
    assert doc["verify"]["tests"] == [
        {"test": "tests/test_util.py::test_double", "before": "passed", "after": "passed", "verdict": "unchanged"}
    ]
    assert doc["verify"]["summary"]["unchanged"] == 1 and doc["verify"]["written"] is False
    assert doc["migration"]["summary"]["files_changed"] == 1  # pkg/ops.py, which no test imports
    assert git_state(plain) == state and tree_bytes(plain) == files
    assert os.listdir(tmp) == []


def test_the_working_trees_changes_are_in_the_copy(plain, tmp):
    """Committed, staged, unstaged, untracked and deleted: the after run sees
    the files as the user has them, not as HEAD has them."""
    (plain / "tests" / "test_new.py").write_text("def test_new():\n    pass\n")  # untracked
    (plain / "pkg" / "util.py").write_text("def double(x):\n    return x + x\n")  # unstaged
    git(plain, "rm", "-q", "tests/test_util.py")  # deleted, and staged so
    state = git_state(plain)
    run, doc = verify_json(plain, tmp, PYTEST)
    assert run.returncode == 0, run.stderr
    assert [(r["test"], r["verdict"]) for r in doc["verify"]["tests"]] == [("tests/test_new.py::test_new", "unchanged")]
    assert git_state(plain) == state


def test_unittest_outcomes_are_per_test(plain, tmp):
    (plain / "tests" / "__init__.py").write_text("")
    (plain / "tests" / "test_case.py").write_text(
        "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n\n"
        "    @unittest.skip('not today')\n    def test_b(self):\n        pass\n"
    )
    run, doc = verify_json(plain, tmp, f"{sys.executable} -m unittest discover -s tests -t .")
    assert run.returncode == 0, run.stderr
    assert [(r["test"], r["before"], r["verdict"]) for r in doc["verify"]["tests"]] == [
        ("tests.test_case.T.test_a", "passed", "unchanged"),
        ("tests.test_case.T.test_b", "skipped", "unchanged"),
    ]


def test_any_other_command_is_judged_by_its_exit_code(plain, tmp):
    fails_in_the_copy = f"{sys.executable} -c \"import os, sys; sys.exit('hijax-verify-' in os.getcwd())\""
    run, doc = verify_json(plain, tmp, fails_in_the_copy)
    assert run.returncode == 1, run.stderr  # passed before, fails after: broken
    assert doc["verify"]["tests"] == [
        {"test": "(exit code)", "before": "passed", "after": "failed", "verdict": "broken"}
    ]


def test_a_broken_run_writes_nothing_with_in_place(plain, tmp):
    files, state = tree_bytes(plain), git_state(plain)
    fails_in_the_copy = f"{sys.executable} -c \"import os, sys; sys.exit('hijax-verify-' in os.getcwd())\""
    run = tool(*FLAGS, "--verify", fails_in_the_copy, "--in-place", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 1, run.stderr
    assert "broken" in run.stdout and "(exit code)" in run.stdout
    assert tree_bytes(plain) == files and git_state(plain) == state


def test_in_place_writes_what_was_verified_when_nothing_broke(plain, tmp):
    run = tool(*FLAGS, "--verify", PYTEST, "--in-place", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 0, run.stderr
    migrated = tool(*FLAGS, "--diff", ".", cwd=plain, tmp=tmp)
    assert migrated.returncode == 0 and migrated.stdout == ""  # nothing left to migrate
    assert "HiPrim" in (plain / "pkg" / "ops.py").read_text()
    assert "migrated 1 file" in run.stderr


def test_a_file_edited_while_the_tests_run_stops_the_write(plain, tmp):
    """The before run (in the project) edits a file the migration changes:
    the tested bytes are no longer the migration of that file."""
    edits = (
        f"{sys.executable} -c \"import os; p = os.path.join(os.getcwd(), 'pkg', 'ops.py'); "
        f"'hijax-verify-' in p or open(p, 'a').write('# edited')\""
    )
    run = tool(*FLAGS, "--verify", edits, "--in-place", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 3, run.stderr
    assert "nothing written: " in run.stderr and "pkg/ops.py changed while the tests ran" in run.stderr
    text = (plain / "pkg" / "ops.py").read_text()
    assert "VJPHiPrimitive" in text and text.endswith("# edited")


def test_a_folder_that_is_no_repository_is_copied(tmp_path, tmp):
    (tmp_path / "proj").mkdir()
    root = project(tmp_path / "proj", PLAIN_PROJECT, repo=False)
    files = tree_bytes(root)
    run, doc = verify_json(root, tmp, PYTEST)
    assert run.returncode == 0, run.stderr
    assert doc["verify"]["summary"]["unchanged"] == 1 and tree_bytes(root) == files
    assert os.listdir(tmp) == []


def test_a_command_that_cannot_start_is_a_usage_error(plain, tmp):
    state = git_state(plain)
    run = tool(*FLAGS, "--verify", "no-such-program --flag", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 2
    assert "cannot start 'no-such-program'" in run.stderr and "Traceback" not in run.stderr
    assert git_state(plain) == state and os.listdir(tmp) == []


def test_a_hanging_command_is_stopped_with_its_whole_group_at_the_timeout(plain, tmp):
    files, state = tree_bytes(plain), git_state(plain)
    hangs = f"sh -c 'echo $$ > ../group; sleep 60 & {sys.executable} -c \"import os; r, w = os.pipe(); os.read(r, 1)\"'"
    run = tool(*FLAGS, "--verify", hangs, "--verify-timeout", "2", "--in-place", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 3, run.stderr
    assert "timed out after 2" in run.stdout and "not verified: the run before the migration timed out" in run.stdout
    group = int((plain.parent / "group").read_text())
    assert group_members(group) == []
    assert tree_bytes(plain) == files and git_state(plain) == state and os.listdir(tmp) == []


def test_ctrl_c_stops_the_command_and_removes_the_copy(plain, tmp):
    fifo = plain.parent / "started"
    os.mkfifo(fifo)
    state = git_state(plain)
    tells = f"sh -c 'echo $$ > {fifo}; exec sleep 60'"
    process = subprocess.Popen(
        [sys.executable, "-m", "hijax_migrate", *FLAGS, "--verify", tells, "."],
        cwd=plain,
        env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with open(fifo) as started:  # opens when the command writes: it is running
        group = int(started.read())
    assert os.listdir(tmp)  # the copy is there while it runs
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert group_members(group) == [] and os.listdir(tmp) == [] and git_state(plain) == state


def test_keep_verify_dir_keeps_the_copy_and_says_where(plain, tmp):
    state = git_state(plain)
    run = tool(*FLAGS, "--verify", PYTEST, "--keep-verify-dir", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 0, run.stderr
    kept = Path(run.stderr.split("verify: kept ")[1].split(":")[0])
    assert kept.parent == tmp.resolve() and "HiPrim" in (kept / "tree" / "pkg" / "ops.py").read_text()
    assert (kept / "after.log").read_text().count("passed") == 1
    assert git_state(plain) == state  # git forgot the worktree: the copy is a plain folder now


def test_github_and_text_reports(plain, tmp):
    fails_in_the_copy = f"{sys.executable} -c \"import os, sys; sys.exit('hijax-verify-' in os.getcwd())\""
    run = tool(*FLAGS, "--verify", fails_in_the_copy, "--output-format", "github", ".", cwd=plain, tmp=tmp)
    assert run.returncode == 1
    assert "::error title=hijax-migrate --verify%3A broken::(exit code): passed before the migration" in run.stdout
    text = tool(*FLAGS, "--verify", fails_in_the_copy, "--color", "always", ".", cwd=plain, tmp=tmp)
    assert "\x1b[1;31m  broken" in text.stdout and "verified: " in text.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("--check",), "--verify with --check"),
        (("--verify-python", "/no/such/python"), "--verify-python: /no/such/python is not an interpreter"),
        (("--verify-timeout", "0"), "must be more than 0 seconds"),
    ],
)
def test_usage_errors(plain, tmp, args, message):
    run = tool(*FLAGS, "--verify", "true", *args, ".", cwd=plain, tmp=tmp)
    assert run.returncode == 2 and message in run.stderr


def test_verify_python_alone_is_a_usage_error(plain, tmp):
    run = tool(*FLAGS, "--verify-python", sys.executable, ".", cwd=plain, tmp=tmp)
    assert run.returncode == 2 and "give --verify CMD" in run.stderr


def test_the_configurations_verify_python_runs_the_after_side(plain, tmp):
    """``verify-python`` in [tool.hijax-migrate], relative to its file: the
    after run's ``python`` is that one (here a link to this interpreter)."""
    (plain / "bin").mkdir()
    (plain / "bin" / "python-after").symlink_to(sys.executable)
    (plain / "pyproject.toml").write_text('[tool.hijax-migrate]\nverify-python = "bin/python-after"\n')
    tells = "python -c \"import sys; sys.exit(sys.executable.endswith('python-after'))\""
    run, doc = verify_json(plain, tmp, tells)
    assert run.returncode == 1, run.stderr
    assert doc["verify"]["python"] == str(plain / "bin" / "python-after")
    flag = tool(*FLAGS, "--verify", tells, "--verify-python", sys.executable, ".", cwd=plain, tmp=tmp)
    assert flag.returncode == 0, flag.stderr  # the flag wins over the file
