"""The semantic checks of one jax release, run in one jax process.

Starting jax takes seconds; a check runs its case twice (before and after
the migration), in milliseconds. So every case of a release is migrated
first, then every module is run by one ``jax_probe.py`` process, and each
test reads its own case's results: each case still passes or fails alone.
A batch process that crashes, or prints fewer results than it was given
modules, fails every test that reads the batch, with its stderr.

Under pytest-xdist, the tests that read a release's batch go to one worker
(``GROUPS``; conftest.py's scheduler), which runs the batch once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PROBE = Path(__file__).with_name("jax_probe.py")


def jax_version(python: str) -> str | None:
    if python == sys.executable:  # this interpreter: asked here, not by another one started for it
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("jax")
        except PackageNotFoundError:
            return None
    code = "from importlib.metadata import version; print(version('jax'))"
    run = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else None


HAS_JAX_HERE = jax_version(sys.executable) is not None
PY312 = os.environ.get("HIJAX_PY312", "")
JAX_012 = jax_version(PY312) if PY312 else None


# The test functions that read each batch fixture: a group of tests that one
# worker runs (conftest.py checks that every test using a batch is listed).
GROUPS = {
    "jax_010_runs": (
        "tests/test_semantics.py::test_core_under_jax_010",
        "tests/test_semantics.py::test_proven_or_refused_under_jax_010",
        "tests/test_families.py::test_single_file_under_jax_010",
        "tests/test_families.py::test_tree_under_jax_010",
        "tests/test_properties.py::test_generated_programs_give_right_gradients_under_jax",
        "tests/test_families.py::test_the_migrated_module_level_call_runs_under_jax_010",
        "tests/test_names_jax.py::test_migrated_right_or_refused_under_jax_010",
        "tests/test_suppression_jax.py::test_a_skipped_class_and_a_migrated_one_in_one_file_under_jax_010",
        "tests/test_suppression_jax.py::test_a_skip_that_leaves_a_value_rule_fails_the_check_as_it_fails_under_jax_010",
        "tests/test_bases_properties.py::test_generated_bases_under_jax_010",
    ),
    "jax_012_runs": (
        "tests/test_semantics.py::test_old_eras_under_jax_012",
        "tests/test_families.py::test_single_file_under_jax_012",
        "tests/test_families.py::test_tree_under_jax_012",
        "tests/test_path_semantics.py::test_known_paths_migrate_under_jax_012",
        "tests/test_path_semantics.py::test_an_accumulator_rule_returning_logs_is_left_as_written",
        "tests/test_dce_forms.py::test_each_dce_form_is_migrated_and_runs_under_jax_012",
        "tests/test_dce_forms.py::test_a_batch_dim_rule_that_only_raises_fails_vmap_on_both_releases",
        "tests/test_families.py::test_a_fixture_used_only_in_a_raises_block_still_raises_under_jax_012",
        "tests/test_new_user.py::test_a_080_repository_runs_under_012_after_migration",
        "tests/test_removed_helpers.py::test_reported_exactly_where_jax_012_refuses",
        "tests/test_removed_helpers.py::test_a_single_lin_is_reported_exactly_where_jax_012_gives_it_the_pair",
        "tests/test_golden_docs.py::test_python_cell_magics_run_under_jax_012",
        "tests/test_names_jax.py::test_migrated_right_or_refused_under_jax_012",
        "tests/test_suppression_jax.py::test_a_skipped_class_and_a_migrated_one_share_the_removed_base_under_jax_012",
        "tests/test_bases_properties.py::test_generated_bases_under_jax_012",
    ),
}


class BatchFailed(Exception):
    pass


class Batch:
    """Modules to run under one interpreter, then each one's result."""

    def __init__(self, python: str, folder: Path):
        self.python, self.folder = python, folder
        self.args: list[str] = []
        self.index: dict[str, int] = {}  # an argument: its result's position (a module given twice runs once)
        self.results: list[dict] | None = None
        self.failure: str | None = None

    def module(self, source: str) -> int:
        """A single module: the position of its result."""
        path = self.folder / f"m{len(self.args)}.py"
        key = f"source:{source}"
        if key not in self.index:
            path.write_text(source)
            self.index[key] = len(self.args)
            self.args.append(str(path))
        return self.index[key]

    def tree(self, root: Path, main: str) -> int:
        """``main`` run from ``root``, as ``PYTHONPATH=root python main``."""
        self.args.append(f"{root}::{root / main}")
        return len(self.args) - 1

    def script(self, path: Path, stdin: str | None = None, data: object = None) -> Script:
        """``path`` run as ``cd FOLDER && python NAME`` would run it (with ``stdin``): a script of the batch."""
        if stdin is not None:
            Path(f"{path}.in").write_text(stdin)
        self.args.append(f"script:{path}")
        return Script(self, len(self.args) - 1, path.read_text(), data)

    def folder_for(self, name: str) -> Path:
        folder = self.folder / name
        folder.mkdir(parents=True)
        return folder

    def run(self, timeout: float = 1800) -> None:
        try:
            done = subprocess.run(
                [self.python, str(PROBE), *self.args], capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired as error:
            self.failure = f"the batch jax process ran over {timeout} s:\n{error.stderr}"
            return
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or len(lines) != len(self.args):
            self.failure = (
                f"the batch jax process ({self.python}) exited with {done.returncode} after "
                f"{len(lines)} of {len(self.args)} modules:\n{done.stderr[-5000:]}"
            )
            return
        self.results = [json.loads(line) for line in lines]

    def result(self, position: int) -> dict:
        if self.failure is not None:
            raise BatchFailed(self.failure)
        assert self.results is not None, "the batch has not run"
        return self.results[position]


@dataclass
class Script:
    """A script the batch ran: its text, what its maker learnt (``data``), and how it ended."""

    batch: Batch
    position: int
    text: str
    data: object = None

    def ran(self) -> subprocess.CompletedProcess:
        """As ``subprocess.run([python, path], capture_output=True, text=True)`` would have returned."""
        result = self.batch.result(self.position)
        return subprocess.CompletedProcess(["script"], result["returncode"], result["stdout"], result["stderr"])


@dataclass
class Check:
    """One case of a batch: its migration (or the error it raised) and where its runs' results are."""

    batch: Batch
    migrated: object = None
    error: BaseException | None = None
    before: int = -1
    after: int | None = None
    files: dict | None = None  # a tree's files after the migration

    def results(self) -> tuple[object, dict, dict | None]:
        """(migration, run before, run after); raises what the migration raised, or the batch's failure."""
        if self.error is not None:
            raise self.error
        before = self.batch.result(self.before)
        return self.migrated, before, None if self.after is None else self.batch.result(self.after)


def migrate_case(batch: Batch, case, options) -> Check:
    from hijax_migrate.engine.engine import migrate_source

    check = Check(batch, before=batch.module(case.source()))
    try:
        check.migrated = migrate_source(case.source(), f"{case.name}.py", options)
    except Exception as error:  # noqa: BLE001 -- raised again by the case's own test
        check.error = error
        return check
    check.after = batch.module(check.migrated.code)
    return check


def migrate_tree_case(batch: Batch, case, options, order, name: str) -> Check:
    from hijax_migrate.run.runner import run
    from hijax_migrate.run.state import Job
    from hijax_migrate.sources.files import walk

    before = batch.folder_for(f"{name}/before")
    for file, text in case.files.items():
        (before / file).write_text(text)
    root = batch.folder_for(f"{name}/after")
    shutil.copytree(before, root, dirs_exist_ok=True)
    check = Check(batch, before=batch.tree(before, case.main))
    try:
        jobs = [Job(p, p.name, root) for p in order(walk(root))]
        check.migrated = run(jobs, options, in_place=True, workers=1)
    except Exception as error:  # noqa: BLE001 -- raised again by the case's own test
        check.error = error
        return check
    check.files = {p.name: p.read_text() for p in root.glob("*.py")}
    check.after = batch.tree(root, case.main)
    return check


ORDERS = {"a-z": sorted, "z-a": lambda paths: sorted(paths, reverse=True)}
STRATEGIES = ("auto", "accum")


def batch_of(python: str, target: str, folder: Path, singles: dict, trees: dict, proven=(), extra=()) -> dict:
    """Every case for ``target`` migrated, then run in one jax process: {key: Check}.

    Keys: (label, case name) for a single file, (label, case name, order) for
    a tree, ("proven", case name, strategy) for a proven-or-refused case; and
    whatever each of ``extra`` (a function of the batch) returns."""
    from hijax_migrate.core.versions import parse_version
    from hijax_migrate.rules.context import Options

    batch = Batch(python, folder)
    version = parse_version(target)
    with pytest.MonkeyPatch.context() as patch:  # set up before any test's own cache: the batch's own
        patch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(folder / "cache"))
        checks = {
            (label, case.name): migrate_case(batch, case, Options(version, **case.flags))
            for label, cases in singles.items()
            for case in cases
        }
        for label, cases in trees.items():
            for case in cases:
                for order, sort in ORDERS.items():
                    checks[label, case.name, order] = migrate_tree_case(
                        batch, case, Options(version), sort, f"{label}-{case.name}-{order}"
                    )
        for case in proven:
            for strategy in STRATEGIES:
                checks["proven", case.name, strategy] = migrate_case(batch, case, Options(version, strategy=strategy))
        for add in extra:
            checks.update(add(batch))
    batch.run()
    return checks


@pytest.fixture(scope="session")
def jax_010_runs(tmp_path_factory) -> dict:
    """The jax 0.10.2 cases of test_semantics, test_families, test_properties, test_names_jax,
    test_suppression_jax and test_bases_properties, from one process."""
    from family_cases import FAMILY_CASES, FWD_CASES, SCOPE_CASES, TREES
    from rule_programs import sample_checks
    from semantic_cases import CORE_CASES, PROVEN_CASES
    from test_bases_properties import bases_checks
    from test_families import module_level_scripts
    from test_names_jax import names_scripts
    from test_suppression_jax import suppression_checks

    return batch_of(
        sys.executable,
        "0.10",
        tmp_path_factory.mktemp("jax-0.10"),
        {"core": CORE_CASES, "family": FWD_CASES + SCOPE_CASES + FAMILY_CASES},
        {"tree": TREES},
        PROVEN_CASES,
        extra=(
            sample_checks,
            module_level_scripts,
            names_scripts("0.10"),
            suppression_checks("0.10"),
            bases_checks("0.10"),
        ),
    )


@pytest.fixture(scope="session")
def jax_012_runs(tmp_path_factory) -> dict:
    """The jax 0.12 cases of test_semantics, test_families, test_path_semantics,
    test_dce_forms, test_suppression_jax and test_bases_properties, and the scripts of test_families,
    test_new_user, test_removed_helpers, test_golden_docs and test_names_jax, from one process."""
    from dce_forms import checks_012
    from family_cases import FAMILY_CASES, FWD_CASES, JAX_012_ONLY, JAX_012_TREES, SCOPE_CASES, TREES
    from semantic_cases import JAX_012_CASES, LOGS_CASE, PATH_CASES_012
    from test_bases_properties import bases_checks
    from test_families import fixture_test_script
    from test_golden_docs import cell_magic_scripts
    from test_names_jax import names_scripts
    from test_new_user import new_user_scripts
    from test_removed_helpers import removed_helper_scripts
    from test_suppression_jax import suppression_checks

    return batch_of(
        PY312,
        "0.12",
        tmp_path_factory.mktemp("jax-0.12"),
        {"core": JAX_012_CASES, "family": FWD_CASES + SCOPE_CASES + FAMILY_CASES + JAX_012_ONLY, "logs": [LOGS_CASE]},
        {"tree": TREES + JAX_012_TREES},
        PATH_CASES_012,
        extra=(
            checks_012,
            fixture_test_script,
            new_user_scripts,
            removed_helper_scripts,
            cell_magic_scripts,
            names_scripts("0.12"),
            suppression_checks("0.12"),
            bases_checks("0.12"),
        ),
    )
