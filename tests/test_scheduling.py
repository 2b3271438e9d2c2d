"""conftest.py's grouping of tests onto xdist workers: what shares a costly
set-up (a jax batch, a module-scoped fixture) runs on one worker, which
sets it up once; every other test is free to go to either."""

from __future__ import annotations

from pathlib import Path

from conftest import group_of

ROOT = Path(__file__).resolve().parent.parent


def test_a_jax_batchs_tests_are_one_group():
    semantics = group_of("tests/test_semantics.py::test_core_under_jax_010[mul]", ROOT)
    families = group_of("tests/test_families.py::test_tree_under_jax_010[chain-a-z]", ROOT)
    assert semantics == families == "jax_010_runs"
    assert group_of("tests/test_families.py::test_single_file_under_jax_012[x]", ROOT) == "jax_012_runs"
    # jax tests of other modules, run in the release's batch too
    assert (
        group_of("tests/test_path_semantics.py::test_known_paths_migrate_under_jax_012[a-auto]", ROOT)
        == group_of("tests/test_dce_forms.py::test_each_dce_form_is_migrated_and_runs_under_jax_012[x]", ROOT)
        == "jax_012_runs"
    )


def test_the_tests_that_once_started_a_jax_process_a_case_read_their_releases_batch():
    suppression = "tests/test_suppression_jax.py::"
    for release, tests in {
        "010": (
            "tests/test_names_jax.py::test_migrated_right_or_refused_under_jax_010[a-accum]",
            "tests/test_bases_properties.py::test_generated_bases_under_jax_010",
            suppression + "test_a_skip_that_leaves_a_value_rule_fails_the_check_as_it_fails_under_jax_010",
            suppression + "test_a_skipped_class_and_a_migrated_one_in_one_file_under_jax_010[auto]",
        ),
        "012": (
            "tests/test_names_jax.py::test_migrated_right_or_refused_under_jax_012[a-rename]",
            "tests/test_bases_properties.py::test_generated_bases_under_jax_012",
            suppression + "test_a_skipped_class_and_a_migrated_one_share_the_removed_base_under_jax_012[accum]",
        ),
    }.items():
        assert {group_of(test, ROOT) for test in tests} == {f"jax_{release}_runs"}


def test_a_modules_tests_that_share_a_module_fixture_are_one_group(tmp_path):
    assert (
        group_of("tests/test_nodes.py::test_findall_lists_the_nodes_libcst_findall_lists_in_order[a-b-c]", ROOT)
        == group_of("tests/test_nodes.py::test_each_node_test_agrees_with_the_matcher_it_replaced[x]", ROOT)
        == "tests/test_nodes.py"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_shared.py").write_text('@pytest.fixture(scope = "module")\ndef tree(): ...\n')
    (tmp_path / "tests/test_alone.py").write_text('@pytest.fixture\ndef tree(): ...\n# scope="session"\n')
    assert group_of("tests/test_shared.py::test_x[1]", tmp_path) == "tests/test_shared.py"
    assert group_of("tests/test_alone.py::test_x[1]", tmp_path) is None  # xdist's own: test by test


def test_a_golden_cases_tests_that_share_its_migrations_are_one_group():
    tests = (
        "tests/test_golden.py::test_golden[accum_branches]",
        "tests/test_fast_analysis.py::test_rules_triage_passes_over_change_nothing[accum_branches]",
        "tests/test_candidates.py::test_every_file_a_migration_acts_on_is_a_candidate[accum_branches]",
    )
    assert {group_of(test, ROOT) for test in tests} == {"golden case accum_branches"}
    assert group_of("tests/test_golden.py::test_golden[hjx007_derived_aliased]", ROOT) != group_of(tests[0], ROOT)
    assert group_of("tests/test_golden.py::test_there_are_enough_cases", ROOT) is None
