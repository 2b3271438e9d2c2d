"""Whole families or nothing: in-place runs over cross-file families, cut
off at points chosen by events (benchmarks/faults.py: the Nth write, then
a signal or a write error), leave every family wholly migrated or wholly
original, SIGKILL after ``--recover``. The full measurement (100 runs) is
``python benchmarks/faults.py``; here a few dozen, every kind at several points.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import faults

FAMILIES = 3  # 7 files: families 0 (three files), 1 and 2 (two each)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> faults.Tree:
    return faults.Tree.make(tmp_path_factory.mktemp("faults") / "pristine", FAMILIES)


# Points inside a unit (the 1st or 2nd write of family 0's three), at a
# unit's last write, and past the last write (no fault): each kind, both pool sizes.
POINTS = [(kind, point, jobs) for kind in faults.KINDS for point, jobs in [(1, "1"), (2, "2"), (5, "2"), (7, "1")]]


@pytest.mark.parametrize("kind, point, jobs", POINTS)
def test_a_run_cut_off_leaves_no_family_half_migrated(tree, tmp_path, kind, point, jobs):
    result = faults.one_run(tree, tmp_path / "run", kind, point, jobs)
    assert result.interrupted or point == len(tree.before), "the point was reached"
    assert result.strange == [], "every file is whole: as it was or as migrated"
    assert result.half == 0, "every family is wholly migrated or wholly original"
    assert not result.journal_left
    if kind != "SIGKILL":
        assert result.half_before_recover == 0, "only SIGKILL needs --recover"
    expected = {"SIGINT": 130, "SIGTERM": 130, "SIGKILL": -9, "write-error": 3}[kind]
    assert result.code == expected or (kind != "write-error" and result.code == 0 and point == len(tree.before))


def test_the_suite_reports_its_counts(tree, tmp_path):
    results = [faults.one_run(tree, tmp_path / f"run{i}", kind, 2, "1") for i, kind in enumerate(faults.KINDS)]
    said = faults.report(results, FAMILIES)
    assert "runs: 4\ninterrupted points: 4\n" in said and "half-migrated families: 0\n" in said


def test_sigkill_inside_a_unit_leaves_the_journal_and_the_next_run_says_so(tree, tmp_path):
    """The SIGKILL half of the story without --recover: the journal names the
    unit, a later run refuses to read the tree, --recover puts it back."""
    work = tree.copy(tmp_path / "work")
    marker = tmp_path / "held"
    process = subprocess.Popen(
        [*faults.TOOL, "--in-place", "-j", "1", "pkg"],
        cwd=work,
        env={**faults.env(), "HIJAX_MIGRATE_FAULT": f"hold:1:{marker}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert faults._held(marker, process)
    process.kill()
    process.wait()
    assert tree.half_migrated(work)[0] == 1  # family 0: one of its three files written
    again = subprocess.run(
        [*faults.TOOL, "--check", "pkg"], cwd=work, env=faults.env(), capture_output=True, text=True, check=False
    )
    assert again.returncode == 3
    assert "was cut off while writing 3 files of one family" in again.stderr and "--recover" in again.stderr
    recovered = subprocess.run(
        [*faults.TOOL[:3], "--recover"], cwd=work, env=faults.env(), capture_output=True, text=True, check=False
    )
    assert recovered.returncode == 0 and "put back 1 file as it was before" in recovered.stderr
    assert tree.half_migrated(work) == (0, [])
    assert {name: (work / name).read_bytes() for name in tree.before} == tree.before
    assert not (work / ".hijax-migrate-journal").exists()


def test_recover_leaves_a_file_changed_since_and_names_it(tree, tmp_path):
    work = tree.copy(tmp_path / "work")
    marker = tmp_path / "held"
    process = subprocess.Popen(
        [*faults.TOOL, "--in-place", "-j", "1", "pkg"],
        cwd=work,
        env={**faults.env(), "HIJAX_MIGRATE_FAULT": f"hold:1:{marker}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert faults._held(marker, process)
    process.kill()
    process.wait()
    written = next(name for name in tree.before if (work / name).read_bytes() == tree.after[name])
    (work / written).write_text("# edited by hand since\n")
    recovered = subprocess.run(
        [*faults.TOOL[:3], "--recover"], cwd=work, env=faults.env(), capture_output=True, text=True, check=False
    )
    assert recovered.returncode == 3 and "changed since the run was cut off" in recovered.stderr
    assert (work / written).read_text() == "# edited by hand since\n"
    assert (work / ".hijax-migrate-journal").exists()  # kept until the user decides


def test_a_write_error_puts_back_the_family_and_names_it(tree, tmp_path):
    work = tree.copy(tmp_path / "work")
    done = subprocess.run(
        [*faults.TOOL, "--in-place", "-j", "1", "pkg"],
        cwd=work,
        env={**faults.env(), "HIJAX_MIGRATE_FAULT": "write-error:2"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 3
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 3 and "injected write error" in errors[1] and "is left as it was" in errors[1]
    assert all("of the same family, could not be written" in line for line in errors[::2])
    assert tree.half_migrated(work) == (0, [])
    migrated = sum((work / name).read_bytes() == tree.after[name] for name in tree.before)
    assert migrated == len(tree.before) - 3  # the other families were written


def test_recover_with_nothing_to_recover(tmp_path):
    done = subprocess.run(
        [*faults.TOOL[:3], "--recover", str(tmp_path)], env=faults.env(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "nothing to recover" in done.stderr
