"""The journal in every state it can be in (issue 41).

An in-place run is stopped (SIGKILL) at every step of a unit's write
(``journal.STEPS``: the folder made, the slots written, the list written
aside, the list in place, each file written, the list removed, the folder
removed); ``--recover`` then leaves every family whole, migrated or as found,
and a later run is not blocked. A journal this version cannot read (another
layout or version, damaged JSON, a slot missing) gets one line that says what
to do, exit 3 from a run and from ``--recover``, no traceback, and its files
are never touched. The journal's folder does not depend on the paths given.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import faults
from hijax_migrate.sources.journal import FOLDER

FAMILIES = 1  # one family of three files: base0, sub0, leaf0
STEPS = ["folder", "slots", "list-tmp", "list", "write-1", "write-2", "write-3", "unlisted", "removed"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> faults.Tree:
    return faults.Tree.make(tmp_path_factory.mktemp("journal") / "pristine", FAMILIES)


def tool(*args, cwd: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*faults.TOOL, *args], cwd=cwd, env={**faults.env(), **env}, capture_output=True, text=True, check=False
    )


def killed_at(tree: faults.Tree, work: Path, step: str) -> None:
    marker = work.parent / "held"
    process = subprocess.Popen(
        [*faults.TOOL, "--in-place", "-j", "1", "pkg"],
        cwd=work,
        env={**faults.env(), "HIJAX_MIGRATE_FAULT": f"step:{step}:{marker}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert faults._held(marker, process), f"the step {step} was reached"
    process.kill()
    process.wait()


@pytest.mark.parametrize("step", STEPS)
def test_a_run_killed_at_every_step_of_the_journal_is_recovered_whole(tree, tmp_path, step):
    work = tree.copy(tmp_path / "work")
    killed_at(tree, work, step)
    recovered = tool("--recover", cwd=work)
    assert "Traceback" not in recovered.stderr
    assert recovered.returncode == 0, recovered.stderr
    assert tree.half_migrated(work) == (0, [])
    found = {name: (work / name).read_bytes() for name in tree.before}
    # Until the list is in place nothing is written; from then on, --recover
    # puts back; once the list is gone the unit was whole and stays migrated.
    assert found == (tree.after if step in ("unlisted", "removed") else tree.before)
    assert not (work / FOLDER / "unit.json").exists()
    again = tool("--check", "pkg", cwd=work)
    assert again.returncode in (0, 1) and "Traceback" not in again.stderr, again.stderr


def test_every_step_is_named_in_the_journal():
    from hijax_migrate.sources.journal import STEPS as NAMED

    assert [s for s in STEPS if not s.startswith("write-")] == [s for s in NAMED if s != "write"]


def _journal(work: Path, tree: faults.Tree) -> Path:
    """A journal as a killed run leaves it, after the first write."""
    killed_at(tree, work, "write-1")
    return work / FOLDER


def _damaged(folder: Path, how: str) -> None:
    listed = folder / "unit.json"
    data = json.loads(listed.read_text())
    if how == "missing-old":
        (folder / "0.old").unlink()
    elif how == "bad-json":
        listed.write_text(listed.read_text()[:-5])
    elif how == "other-version":
        listed.write_text(json.dumps({**data, "version": 99}))
    elif how == "no-version":
        listed.write_text(json.dumps({"pid": 1, "files": data["files"]}))
    elif how == "other-layout":
        listed.write_text(json.dumps({**data, "files": {"a": 1}}))
    elif how == "list-of-lists":
        listed.write_text(json.dumps(data["files"]))
    elif how == "slot-outside":
        data["files"][0][1] = "../../pkg/base0.py"
        listed.write_text(json.dumps(data))
    elif how == "list-a-folder":
        listed.unlink()
        listed.mkdir()


DAMAGES = [
    "missing-old",
    "bad-json",
    "other-version",
    "no-version",
    "other-layout",
    "list-of-lists",
    "slot-outside",
    "list-a-folder",
]


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
        if ".git" not in p.parts or p.name == ".git"
    }


@pytest.mark.parametrize("how", DAMAGES)
def test_a_journal_that_cannot_be_read_gets_one_line_and_is_never_touched(tree, tmp_path, how):
    work = tree.copy(tmp_path / "work")
    folder = _journal(work, tree)
    _damaged(folder, how)
    before = _snapshot(work)
    for args in (("--recover",), ("--check", "pkg"), ("--in-place", "pkg")):
        done = tool(*args, cwd=work)
        assert done.returncode == 3, (args, done.stderr)
        assert "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "cannot be read" in lines[0] and "delete" in lines[0], done.stderr
        assert _snapshot(work) == before, args


def test_recover_on_a_missing_path_is_a_usage_error(tmp_path):
    done = tool("--recover", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 2 and "no such file" in done.stderr and "Traceback" not in done.stderr


def test_the_journal_folder_does_not_depend_on_the_paths_given(tree, tmp_path):
    """Outside git, ``-i a b`` keeps its journal where the run stands, and a
    later run over ``b`` alone (or ``.``) from there sees it."""
    work = tmp_path / "work"
    for name in ("a", "b"):
        tree.copy(work / name)
        (work / name / ".git").rmdir()
    _killed_while_held(work, tmp_path / "held", "a/pkg", "b/pkg")
    assert (work / FOLDER / "unit.json").exists() and not (work / "a" / FOLDER).exists()
    for paths in (["b/pkg"], ["."]):
        again = tool("--check", *paths, cwd=work)
        assert again.returncode == 3 and "--recover" in again.stderr, (paths, again.stderr)
    assert tool("--recover", cwd=work).returncode == 0
    assert not (work / FOLDER).exists()


def test_runs_over_separate_trees_from_one_folder_keep_separate_journals(tree, tmp_path):
    """Found at the merge: with the journal kept where the run stood, the suite's parallel
    in-place runs (each over its own temporary tree, all from the checkout) saw each other's
    journal and stopped with exit 3. A run over ``b`` while one over ``a`` is held mid-unit
    is not stopped, and the held run's journal stays in ``a``."""
    work = tmp_path / "work"
    for name in ("a", "b"):
        tree.copy(work / name)
        (work / name / ".git").rmdir()
    _killed_while_held(work, tmp_path / "held", "a/pkg")
    assert (work / "a" / "pkg" / FOLDER / "unit.json").exists() and not (work / FOLDER).exists()
    other = tool("--check", "b/pkg", cwd=work)
    assert other.returncode == 1 and "--recover" not in other.stderr, other.stderr
    assert tool("--check", "a/pkg", cwd=work).returncode == 3
    assert tool("--recover", "a/pkg", cwd=work).returncode == 0


def _killed_while_held(work: Path, marker: Path, *paths: str) -> None:
    """``-i PATHS`` from ``work``, held after its unit's first write, then killed outright."""
    process = subprocess.Popen(
        [*faults.TOOL, "--in-place", "-j", "1", *paths],
        cwd=work,
        env={**faults.env(), "HIJAX_MIGRATE_FAULT": f"hold:1:{marker}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert faults._held(marker, process)
    process.kill()
    process.wait()
