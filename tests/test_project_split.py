"""The project split by lifetime: a run's index, a view of it each file with
answers made fresh and carried by the file's result, cross-file decisions as
data from a decider, and no module keeping a parse."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hijax_migrate.analysis.answers import Answers
from hijax_migrate.analysis.index import Index
from hijax_migrate.analysis.project import Project, view_of
from hijax_migrate.core.model import Change, FileReport, Options, Result
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.decisions import Decider
from hijax_migrate.sources import parse
from hijax_migrate.tree.cache import Cache, tool_key
from test_project import write

BASE = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n"
)
SUB = (
    "from pkg.base import Base\n\n\nclass Sub(Base):\n    def vjp_bwd(self, res, g):\n"
    "        return self.vjp_bwd(res, g)\n"
)


def test_each_file_gets_a_fresh_view_and_answers_and_its_dependencies_from_them(tmp_path: Path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE})
    index = Index(roots=(tmp_path,))
    one = view_of(index)
    first = one.answers
    first.touched.add("pkg.base")
    one.summary("pkg.base")
    other = view_of(index)
    second = other.answers
    assert other is not one and second is not first and second == Answers()
    assert other.summary("pkg.base") is one.summary("pkg.base")  # the index's, as found, shared
    assert index.dependencies(second) == []
    assert index.dependencies(first)[0][:2] == ["pkg.base", str(tmp_path / "pkg" / "base.py")]
    first.volatile = True
    assert index.dependencies(first) is None  # rests on another file's migration: never cached


def test_a_files_rewrite_stays_in_its_view(tmp_path: Path):
    """What a file's migration makes of its module is seen by that file alone;
    the next file sees the module as found, and its memo of kinds anew."""
    from hijax_migrate.analysis.ast_summary import parse_ast, summarize_ast

    write(tmp_path, {"base.py": BASE})
    index = Index(roots=(tmp_path,))
    view = view_of(index)
    found = summarize_ast(parse_ast(BASE), "base")[0]
    view.add_summary(found, BASE)  # as triage reads it: the module as found
    assert index.found("base") is found and not index.class_kinds
    [info] = found.classes
    view.class_kind(info)
    rewrite = summarize_ast(parse_ast("class Base:\n    pass\n"), "base")[0]
    view.add_summary(rewrite)  # its rewrite, not on disk
    assert view.summary("base") is rewrite and view.first_summary("base") is found
    assert index.found("base") is found and "base" in view.answers.rewritten
    view.answers.touched.add("base")
    assert index.dependencies(view.answers, "uses") is None  # rests on a text not on disk
    assert index.dependencies(view.answers, "base") == []  # but its own module
    assert index.class_kinds  # kept while the file is in hand
    after = view_of(index)
    assert after.summary("base") is found and not index.class_kinds


def test_a_run_caches_a_result_with_the_answers_it_carries(tmp_path: Path):
    """The cache reads what a result rests on from the answers it carries; a
    result without them (migrated alone) is never kept."""
    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE})
    index = Index(roots=(tmp_path,))
    cache = Cache(tmp_path / "cache", Options(), (tmp_path,))
    alone = Result(SUB, FileReport("sub.py"))
    cache.store("sub.py", "pkg.sub", SUB, alone, index)
    assert not (tmp_path / "cache").exists()
    view = view_of(index)
    view.answers.touched.add("pkg.base")
    view.summary("pkg.base")
    cache.store("sub.py", "pkg.sub", SUB, Result(SUB, FileReport("sub.py"), view.answers), index)
    assert cache.lookup("sub.py", "pkg.sub", SUB, index) is not None


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
    answers = project.answers
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


def test_a_fact_of_the_kept_tree_is_made_once_and_goes_with_it():
    """``kept_fact``: the name model of the file in hand is walked once (triage's sight and
    its constants both ask), another tree's each time, and none outlives its holder."""
    from hijax_migrate.analysis.names import NameModel

    other = parse.python_tree("y = 2\n")
    with parse.trees_kept():
        tree = parse.python_tree("x = 1\n")
        model = NameModel.of(tree)
        assert NameModel.of(tree) is model and "x" in model.bindings
        assert NameModel.of(other) is not NameModel.of(other)
        parse.python_tree("z = 3\n")  # the next file's text: the facts of the last go with its tree
        assert NameModel.of(tree) is not model
    assert NameModel.of(tree) is not NameModel.of(tree)


def test_the_tool_key_is_the_runs_own(tmp_path: Path):
    key = tool_key()
    assert tool_key() == key  # a pure function of the tool's sources as they stand
    one, other = (Cache(tmp_path, Options(), (), tool)._path("f.py", "f", "x") for tool in ("a", "b"))
    assert one != other
    assert Cache(tmp_path, Options(), ())._path("f.py", "f", "x") == Cache(tmp_path, Options(), (), key)._path(
        "f.py", "f", "x"
    )


def test_the_tool_key_changes_with_any_source_of_the_tool(tmp_path: Path, monkeypatch):
    """An edited checkout never reads what an older one wrote: a source edited, added or
    touched, in any folder of the package, is another key; a file not Python's is not."""
    from hijax_migrate.tree import cache

    package = tmp_path / "hijax_migrate"
    write(package, {"tree/cache.py": "", "run/runner.py": "x = 1\n", "__init__.py": ""})
    monkeypatch.setattr(cache, "__file__", str(package / "tree" / "cache.py"))
    keys = [tool_key()]
    (package / "run" / "runner.py").write_text("x = 2\n")  # the same size: its time tells
    os.utime(package / "run" / "runner.py", ns=(1, 1))
    keys.append(tool_key())
    (package / "run" / "runner.py").write_text("x = 22\n")
    keys.append(tool_key())
    write(package, {"rules/new/__init__.py": ""})
    keys.append(tool_key())
    assert len(set(keys)) == len(keys)
    (package / "README.txt").write_text("notes")
    assert tool_key() == keys[-1]


@pytest.mark.parametrize("few", [0, 32])
def test_the_runs_index_is_made_with_its_search_mode_once_the_candidates_are_counted(tmp_path: Path, monkeypatch, few):
    """How the index searches for subclasses is decided before it is made: by
    one index of names over many candidates, else by passes of the tree."""
    from hijax_migrate.analysis.index import SEARCH_PASSES
    from hijax_migrate.run import runner
    from hijax_migrate.run.state import Job, Run

    write(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/sub.py": SUB})
    monkeypatch.setattr(runner, "_FEW_CANDIDATES", few)
    jobs = [Job(tmp_path / "pkg" / name, f"pkg/{name}", tmp_path) for name in ("base.py", "sub.py")]
    with Run.start(jobs, Options(target=(0, 10, 0)), in_place=False, workers=1) as run:
        assert run.index is None
        runner.migrate(run)
        assert run.index.search_passes == (0 if few == 0 else SEARCH_PASSES)
