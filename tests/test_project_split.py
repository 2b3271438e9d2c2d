"""The project split by lifetime: a file's answers made fresh and handed back,
cross-file decisions as data from a decider, and no module keeping a parse."""

from __future__ import annotations

from pathlib import Path

from hijax_migrate.analysis.answers import Answers
from hijax_migrate.analysis.project import Project
from hijax_migrate.core.model import Change, FileReport, Options, Result
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.decisions import Decider
from hijax_migrate.sources import parse
from hijax_migrate.tree.cache import Cache, tool_key
from test_project import write

BASE = ("from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n"
        "    def vjp_bwd(self, res, g):\n        return (g,)\n")
SUB = ("from pkg.base import Base\n\n\nclass Sub(Base):\n    def vjp_bwd(self, res, g):\n"
       "        return self.vjp_bwd(res, g)\n")


def test_each_file_gets_fresh_answers_and_its_dependencies_from_them(tmp_path: Path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE})
    project = Project(roots=(tmp_path,))
    first = project.start_file()
    first.touched.add("pkg.base")
    project.summary("pkg.base")
    second = project.start_file()
    assert second is not first and second == Answers() and project.answers is second
    assert project.dependencies(second) == []
    assert project.dependencies(first)[0][:2] == ["pkg.base", str(tmp_path / "pkg" / "base.py")]
    first.volatile = True
    assert project.dependencies(first) is None  # rests on another file's migration: never cached


def test_a_migration_says_what_it_renames_as_data():
    report = migrate_source(BASE, "base.py", Options(target=(0, 10, 0)), Project(), "base").report
    assert report.renamed == {"Base"}
    assert "renamed" not in [change.action for change in report.changes]  # the data is no message


def test_the_decider_reads_the_data_not_the_words_and_asks_once(tmp_path: Path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE})
    asked = []

    def migrate(code, path, options, project, module):
        asked.append(module)
        assert project.decider is decider  # the other file's migration decides with the same decider
        report = FileReport(path, [Change(path, 5, "Base", "HJX001", "n", "some other wording")], renamed={"Other"})
        return Result(code, report)

    decider = Decider(migrate)
    project = Project(roots=(tmp_path,))
    answers = project.start_file()
    assert decider.renamed_rules(project, Options(), "pkg.base") == {"Other"}
    assert decider.renamed_rules(project, Options(), "pkg.base") == {"Other"}
    assert asked == ["pkg.base"] and answers.volatile


def test_a_call_follows_a_rule_the_run_decider_finds_renamed_elsewhere(tmp_path: Path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE})
    decider = Decider(migrate_source)
    project = Project((), (tmp_path,), decider=decider)
    result = migrate_source(SUB, "pkg/sub.py", Options(target=(0, 10, 0)), project, "pkg.sub")
    assert "return self.vjp_bwd_retval(res, g)" in result.code
    assert decider.renamed_rules(project, Options(target=(0, 10, 0)), "pkg.base") == {"Base"}


def test_a_parse_is_kept_only_inside_a_file_holder():
    code = "x = 1\n"
    assert parse.python_tree(code) is not parse.python_tree(code)  # outside: nothing kept
    with parse.trees_kept():
        tree = parse.python_tree(code)
        with parse.trees_kept():  # inside another: the outer one
            assert parse.python_tree(code) is tree
    assert parse.python_tree(code) is not tree


def test_the_tool_key_is_the_runs_own(tmp_path: Path):
    key = tool_key()
    assert tool_key() == key  # a pure function of the tool's sources as they stand
    one, other = (Cache(tmp_path, Options(), (), tool)._path("f.py", "f", "x") for tool in ("a", "b"))
    assert one != other
    assert Cache(tmp_path, Options(), ())._path("f.py", "f", "x") == Cache(tmp_path, Options(), (), key)._path(
        "f.py", "f", "x")
