"""The parts of ``--verify`` that need no process: the after side's words,
how the probes' records read, and the verdict each pair of outcomes gets."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hijax_migrate.core.errors import UsageError
from hijax_migrate.verify.compare import EXIT_CODE, rows, verdict
from hijax_migrate.verify.invocation import moved, side, with_python, with_unittest_probe, words_of
from hijax_migrate.verify.outcomes import Outcomes, read
from hijax_migrate.verify.process import Ran

PY = "/venvs/new/bin/python"


@pytest.mark.parametrize(
    "command, after",
    [
        ("python -m pytest -q", [PY, "-m", "pytest", "-q"]),
        ("python3.11 -m pytest", [PY, "-m", "pytest"]),
        ("/usr/bin/python3 run.py", [PY, "run.py"]),
        ("pytest tests -x", [PY, "-m", "pytest", "tests", "-x"]),
        ("py.test", [PY, "-m", "pytest"]),
        ("make test", ["make", "test"]),  # left as written: PY's folder goes first on PATH instead
        ("pythonista x", ["pythonista", "x"]),
    ],
)
def test_the_after_sides_interpreter_replaces_python_or_pytest(command, after):
    assert with_python(words_of(command), PY) == after
    assert with_python(words_of(command), None) == words_of(command)


def test_unittest_runs_through_the_probe():
    assert with_unittest_probe(["python", "-m", "unittest", "discover"]) == [
        "python",
        "-m",
        "hijax_verify_unittest",
        "discover",
    ]
    assert with_unittest_probe(["python", "-m", "pytest", "unittest"]) == ["python", "-m", "pytest", "unittest"]
    assert with_unittest_probe(["make", "-m", "unittest"]) == ["make", "-m", "unittest"]


@pytest.mark.parametrize("command", ["", "   ", "python -c 'unclosed"])
def test_a_command_that_cannot_be_read_is_a_usage_error(command):
    with pytest.raises(UsageError):
        words_of(command)


def test_paths_into_the_project_move_into_the_copy_on_the_after_side_only(tmp_path, monkeypatch):
    root, copy = Path("/home/me/proj"), Path("/tmp/hijax-verify-x/tree")
    assert moved("/home/me/proj/tests", root, copy) == "/tmp/hijax-verify-x/tree/tests"
    assert moved("--rootdir=/home/me/proj", root, copy) == "--rootdir=/tmp/hijax-verify-x/tree"
    assert moved("/home/me/project2/x", root, copy) == "/home/me/project2/x"  # another folder
    monkeypatch.setenv("PYTHONPATH", "/home/me/proj/src:/elsewhere")
    monkeypatch.chdir(tmp_path)
    before = side("before", "pytest /home/me/proj/tests", root, copy, tmp_path / "r", None)
    after = side("after", "pytest /home/me/proj/tests", root, copy, tmp_path / "r", PY)
    assert before.words == ["pytest", "/home/me/proj/tests"] and before.cwd == root
    assert after.words == [PY, "-m", "pytest", "/tmp/hijax-verify-x/tree/tests"] and after.cwd == copy
    assert before.env["PYTHONPATH"].split(":")[1:] == ["/home/me/proj/src", "/elsewhere"]
    assert after.env["PYTHONPATH"].split(":")[1:] == ["/tmp/hijax-verify-x/tree/src", "/elsewhere"]
    assert after.env["PATH"].startswith("/venvs/new/bin:") and "-p hijax_verify_pytest" in after.env["PYTEST_ADDOPTS"]


def records(tmp_path: Path, *lines: tuple) -> Path:
    path = tmp_path / "results.jsonl"
    path.write_text(
        "".join(json.dumps({"id": i, "when": w, "outcome": o}) + "\n" for i, w, o in lines) + '{"id": "cut short'
    )
    return path


def test_a_tests_outcome_is_its_worst_phases(tmp_path):
    found = read(
        records(
            tmp_path,
            ("t::a", "setup", "passed"),
            ("t::a", "call", "passed"),
            ("t::a", "teardown", "failed"),
            ("t::b", "setup", "skipped"),
            ("t::c", "call", "passed"),
            ("broken.py", "collect", "failed"),
        ),
        Ran(1, 1.0),
    )
    assert found.tests == {"t::a": "failed", "t::b": "skipped", "t::c": "passed", "broken.py": "failed"}
    assert found.of("broken.py::test_x") == "failed" and found.of("t::z") is None


@pytest.mark.parametrize(
    "before, after, expected",
    [
        ("failed", "passed", "fixed"),
        ("passed", "failed", "broken"),
        ("skipped", "failed", "broken"),
        (None, "failed", "broken"),
        ("failed", "failed", "still failing"),
        ("passed", "passed", "unchanged"),
        ("skipped", "skipped", "unchanged"),
        ("passed", "skipped", "not compared"),
        ("passed", None, "not compared"),
        (None, "passed", "not compared"),
        ("failed", "skipped", "not compared"),
    ],
)
def test_verdicts(before, after, expected):
    assert verdict(before, after) == expected


def test_a_module_that_failed_to_import_stands_for_its_tests():
    before = Outcomes(Ran(2, 1.0), {"t.py": "failed", "u.py::x": "passed"}, {"t.py"})
    after = Outcomes(Ran(0, 1.0), {"t.py::a": "passed", "t.py::b": "passed", "u.py::x": "passed"})
    assert [(r.test, r.verdict) for r in rows(before, after)] == [
        ("t.py::a", "fixed"),
        ("t.py::b", "fixed"),
        ("u.py::x", "unchanged"),
    ]


def test_the_exit_code_speaks_where_no_test_does():
    silent = rows(Outcomes(Ran(0, 1.0)), Outcomes(Ran(1, 1.0)))
    assert [(r.test, r.verdict) for r in silent] == [(EXIT_CODE, "broken")]
    crashed = rows(Outcomes(Ran(0, 1.0), {"a": "passed"}), Outcomes(Ran(3, 1.0), {"a": "passed"}))
    assert [(r.test, r.verdict) for r in crashed] == [("a", "unchanged"), (EXIT_CODE, "broken")]
    timed_out = rows(Outcomes(Ran(0, 1.0), {"a": "passed"}), Outcomes(Ran(None, 2.0), {"a": "passed"}))
    assert [r.test for r in timed_out] == ["a"]


def test_git_forgets_the_scratch_worktree_and_only_it(tmp_path):
    """A kept copy (or a ``worktree add`` cut short) leaves git's record of it:
    that record goes, a stale worktree of the user's own stays listed."""
    from hijax_migrate.verify.scratch import Scratch, _forget, _release
    from verify_helpers import git, project

    (tmp_path / "proj").mkdir()
    root = project(tmp_path / "proj", {"a.py": "x = 1\n"})
    git(root, "worktree", "add", "-q", "--detach", str(tmp_path / "users-own"), "HEAD")
    (tmp_path / "users-own" / ".git").unlink()  # stale: git worktree prune would drop it
    top = tmp_path / "hijax-verify-x"
    git(root, "worktree", "add", "-q", "--detach", str(top / "tree"), "HEAD")
    _release(Scratch(root.resolve(), top.resolve(), worktree=True), keep=True)
    assert (top / "tree" / "a.py").exists() and not (top / "tree" / ".git").exists()
    records = [
        (root / ".git" / "worktrees" / name / "gitdir").read_text().strip()
        for name in os.listdir(root / ".git" / "worktrees")
    ]
    assert records == [str(tmp_path / "users-own" / ".git")]
    _forget(Scratch(root.resolve(), top.resolve()))  # nothing of the scratch left: nothing more goes
    assert len(os.listdir(root / ".git" / "worktrees")) == 1
