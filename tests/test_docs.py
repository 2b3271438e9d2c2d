"""The rule reference (docs/rules.md), the README's table of rules and every
rule's example match the registry."""

import subprocess
import sys
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.cli import main
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.output.docs import TABLE_BEGIN, TABLE_END, readme_section, rules_markdown, rules_table, section
from hijax_migrate.rules.context import Options
from hijax_migrate.rules.registry import all_rules

README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"


def test_the_rules_page_is_generated_from_registry():
    assert readme_section((DOCS / "rules.md").read_text()) == rules_markdown().strip("\n")


def test_the_readme_rule_table_is_generated_from_registry():
    table = section(README.read_text(), TABLE_BEGIN, TABLE_END)
    assert table == rules_table()
    assert len(table.splitlines()) == 2 + len(all_rules())  # one line a rule


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_example_is_what_the_rule_does(rule):
    result = migrate_source(rule.before, options=Options(target=rule.since, only=(rule.code,)))
    assert result.code == rule.after
    assert result.report.changes or result.report.findings


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_is_gated_by_its_release(rule):
    older = (
        (rule.since[0], rule.since[1], rule.since[2] - 1) if rule.since[2] else (rule.since[0], rule.since[1] - 1, 99)
    )
    result = migrate_source(rule.before, options=Options(target=older, only=(rule.code,)))
    assert result.code == rule.before and not result.report.changes and not result.report.findings


def test_every_flag_is_documented(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    usage = (DOCS / "usage.md").read_text()
    flags = [word.strip(",[]") for word in capsys.readouterr().out.split() if word.startswith("--")]
    missing = {flag for flag in flags if f"`{flag}" not in usage} - {"--help"}
    assert not missing


def test_list_rules_names_every_rule(capsys):
    assert main(["--list-rules", "--target-jax", "0.12"]) == 0
    out = capsys.readouterr().out
    assert all(rule.code in out and rule.name in out for rule in all_rules())


def test_list_rules_follows_the_target(capsys):
    assert main(["--list-rules", "--target-jax", "0.9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = {line.split()[0] for line in lines[1:] if line.split()[4] == "active"}  # every rule, each marked
    assert lines[0] == "target: jax 0.9.0 (--target-jax)" and len(lines) == 1 + len(all_rules())
    assert listed == {rule.code for rule in all_rules() if rule.since <= (0, 9, 0)} and "HJX003" not in listed


def test_the_pre_filter_lets_through_every_file_a_rule_may_change():
    from hijax_migrate.sources.files import covering

    for rule in all_rules():
        words = rule.needs or (rule.kinds and {kind.value for kind in rule.kinds})
        assert words, f"{rule.code} says nothing of what it needs"
        for word in words:
            assert covering(word), (rule.code, word)


def test_the_registry_is_whole_and_in_order_whichever_rule_was_imported_first():
    """A rule's rewrite imported on its own before the registry loads (as a
    test of one rule does) once left the registry with that rule alone."""
    code = (
        "import sys; from hijax_migrate.rules.version_gates import rewrite; "
        "from hijax_migrate.rules.fwd_nzs_in import rewrite; "
        "from hijax_migrate.rules.registry import all_rules, _RULE_MODULES; "
        "print(' '.join(r.transformer.__module__.split('.')[2] for r in all_rules())); "
        "print(' '.join(_RULE_MODULES))"
    )
    run = FORKER.code(code, [], Path.cwd())  # a fresh process: none of the tool imported yet
    assert run.returncode == 0, run.stderr
    found, declared = run.stdout.splitlines()
    assert found == declared


def test_each_rule_is_one_package_and_its_rewrite_names_it():
    from hijax_migrate.rules import registry

    for rule in all_rules():
        package = rule.transformer.__module__.rpartition(".")[0]
        assert rule.transformer.rule is rule and package.rpartition(".")[2] in registry._RULE_MODULES
        assert sys.modules[package].RULE is rule


def test_every_rules_words_come_from_the_registry_alone():
    """Where any rule counts (notebook cells, respelt names, git hooks), the
    pre-filter takes ``triage.every_word()``, made from the registry: the
    rules' words, ``HiPrim`` and the names jax added; sources/ keeps no list
    of its own."""
    from hijax_migrate.core.versions import ADDED_NAMES
    from hijax_migrate.engine.triage import every_word
    from hijax_migrate.sources import files

    words = {
        found
        for rule in all_rules()
        for word in rule.needs or {kind.value for kind in rule.kinds}
        for found in files.covering(word)
    }
    assert every_word() == words | {name.encode() for name in ADDED_NAMES} | {b"HiPrim"}
    assert not [
        name
        for name, value in vars(files).items()
        if isinstance(value, (tuple, frozenset, set)) and b"vjp_bwd" in value
    ]


@pytest.mark.parametrize("args", [["--list-rules"], ["--select", "HJX010", "--list-rules"]])
def test_the_rules_are_listed_without_libcst(args):
    code = (
        "import sys; from hijax_migrate.cli import main; from hijax_migrate.rules.registry import all_rules; "
        f"main({args!r}); all_rules(); print('libcst' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-1] == "False"
