import functools
import gc
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


import pytest

# Most of the suite's CPU is libcst making and dropping trees of small objects:
# at Python's default (a young collection every 700 allocations, a full one
# every 100 of those) some 6% of it went to the cyclic collector walking the
# same live objects again. Collections come rarer; none is skipped.
gc.set_threshold(50_000, 20, 100)


def pytest_collection_finish(session):
    """What collection made (modules, test items) lives to the end: set
    aside (gc.freeze), full collections no longer walk it."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    """Fixtures wider than a test (set up before any test's own) never use the user's cache either."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("session-cache")))
        yield


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Each test keeps its results apart: never the user's cache, never another test's."""
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


from jax_batch import GROUPS, jax_010_runs, jax_012_runs  # noqa: E402, F401 -- session fixtures: one jax process a release


def batch_of(nodeid: str) -> str | None:
    """The batch fixture a test reads (jax_batch.GROUPS), if any."""
    function = nodeid.split("[", 1)[0]
    return next((fixture for fixture, functions in GROUPS.items() if function in functions), None)


@functools.cache
def shares_a_module_fixture(file: Path) -> bool:
    """A test module that defines a module-scoped fixture (a jax process, a
    tree built or migrated): its tests run on one worker, which sets it up
    once, rather than once on each worker that gets one of them."""
    return file.is_file() and re.search(r"""scope\s*=\s*["']module["']""", file.read_text()) is not None


# Tests of each golden case that ask for the same full migrations of its
# texts (golden.migrated, kept a process): one worker runs a case's, and
# migrates each text once.
GOLDEN_CASE_TESTS = (
    "tests/test_golden.py::test_golden",
    "tests/test_fast_analysis.py::test_rules_triage_passes_over_change_nothing",
    "tests/test_fast_analysis.py::test_files_left_to_ast_are_those_the_migration_leaves",
    "tests/test_candidates.py::test_every_file_a_migration_acts_on_is_a_candidate",
)


def golden_case_of(nodeid: str) -> str | None:
    function, _, case = nodeid.partition("[")
    return f"golden case {case.removesuffix(']')}" if function in GOLDEN_CASE_TESTS else None


def group_of(nodeid: str, root: Path) -> str | None:
    """The tests one worker runs together: a jax batch, a golden case's, or a module sharing a fixture."""
    file = nodeid.split("::", 1)[0]
    return batch_of(nodeid) or golden_case_of(nodeid) or (file if shares_a_module_fixture(root / file) else None)


# The longest single tests (pytest --durations), started first: under
# pytest-xdist none of them is left to run alone at the end. (xdist's
# loadgroup hands out groups first, the largest first; then these, then the
# rest as collected.)
LONGEST = (
    "tests/test_parallel_equivalence.py::test_parallel_and_cached_runs_give_the_serial_uncached_result",
    "tests/test_properties.py::test_migration_properties",
    "tests/test_git.py::test_pre_commit_framework_runs_the_hooks_for_real",
    "tests/test_faults.py::test_a_tree_of_broken_files",
    "tests/test_hash_seeds.py::test_output_files_and_cache_do_not_depend_on_the_hash_seed_or_the_jobs",
    "tests/test_linediff.py::test_the_diff_is_difflibs",
    "tests/test_verify_jax.py::test_two_venvs_the_migration_before_the_upgrade_is_proved_and_written",
    "tests/test_verify_jax.py::test_a_migration_that_changes_a_gradient_is_broken_and_nothing_is_written",
    "tests/test_deflines_props.py::test_lines_read_from_ast_are_libcsts",
    "tests/test_hook_tree_props.py::test_the_kept_copy_is_the_pushed_tree_after_any_pushes_and_touches",
    "tests/test_import_edits_props.py::test_import_edits_give_the_whole_modules_result",
    "tests/test_properties.py::test_rule_programs_migrate_or_warn",
    "tests/test_fast_paths_agree.py::test_calls_of_a_renamed_rule_anywhere",
    "tests/test_two_runs.py::test_runs_in_one_process_give_what_separate_processes_give",
    "tests/test_program_trees.py::test_a_drawn_tree_comes_out_safe",
    "tests/test_doc_snippets.py::test_commands_run_as_written_in_the_order_written",
    "tests/test_fast_paths_agree.py::test_imports_a_rule_edits",
    "tests/test_faults.py::test_stdin_refuses_what_a_file_would_refuse",
    "tests/test_suppression.py::test_this_repositorys_documents_are_left_alone_by_their_marks_alone",
)


def pytest_collection_modifyitems(config, items):
    first = {name: rank for rank, name in enumerate(LONGEST)}
    items.sort(key=lambda item: first.get(item.nodeid.split("[", 1)[0], len(LONGEST)))  # the rest as they were
    for item in items:
        used = [fixture for fixture in GROUPS if fixture in getattr(item, "fixturenames", ())]
        if used != [batch_of(item.nodeid)] and (used or batch_of(item.nodeid)):
            raise pytest.UsageError(
                f"{item.nodeid} uses {used or 'no batch'}: list it under that fixture "
                "in jax_batch.GROUPS, and only there"
            )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadgroup, with the tests of each jax batch as a group: one
    worker runs the batch once; so with a module's tests that share a
    module-scoped fixture (``group_of``). (Grouped here, by name, not by xdist_group
    marks: pytest-xdist 3.8 names a group in a test's node id, which pytest
    9.2 no longer lets it change, and its groups silently come apart.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class BatchGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid, config.rootpath) or super()._split_scope(nodeid)

    return BatchGroups(config, log)


@pytest.fixture(scope="session", autouse=True)
def _ctrl_c_as_python_sets_it():
    """Ctrl-C raises KeyboardInterrupt in the test process and in the tool's
    subprocesses, as in a terminal, even where pytest was started with SIGINT
    ignored (a background job, some CI runners): the interrupt tests send it."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


@pytest.fixture(autouse=True)
def _signals_as_found(_ctrl_c_as_python_sets_it):
    """A test leaves the process's Ctrl-C and SIGTERM handling as it found
    it: the tool's subprocesses inherit an ignored SIGINT, and the next test
    of this worker would wait for a Ctrl-C that never lands."""
    import signal

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    after = {sig: signal.getsignal(sig) for sig in before}
    for sig, handler in before.items():
        signal.signal(sig, handler)
    assert after == before, f"the test changed the handling of {[s.name for s in before if after[s] != before[s]]}"
