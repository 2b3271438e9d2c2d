"""Issue 42, ruff's ``per-file-ignores``: ``[tool.hijax-migrate.per-file-ignores]``
maps glob patterns (ruff's: the file's path, the pattern relative to the
configuration's folder, or its base name; ``!`` negates) to the rules a file
runs without. Read and checked (usage errors naming file and key), matched,
honoured through the whole run (prefilter, triage, rewrite, cache, report,
``--check``'s exit code), across a family (a rule skipped in one file of it
is skipped in all), with ``HJX100`` and ``--show-settings``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.core.model import Options
from hijax_migrate.core.per_file import PerFileIgnores, translate

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
"""
# At 0.12 only HJX001 acts here: it renames the value rule.
HIPRIM = """from jax.experimental.hijax import HiPrim


class Mul(HiPrim):
    def vjp_bwd(self, res, g):
        return (g, g)
"""
SUB = """from pkg.base import Base


class Sub(Base):
    def vjp_bwd(self, res, g):
        return (g, g * 2)
"""
# The diff each file gets at 0.12: every rule, and without HJX001 (a context line is one space).
EVERY_RULE = "\n".join(
    [
        "--- a/{0}",
        "+++ b/{0}",
        "@@ -1,6 +1,6 @@",
        "-from jax.experimental.hijax import VJPHiPrimitive",
        "+from jax.experimental.hijax import HiPrim",
        " ",
        " ",
        "-class Mul(VJPHiPrimitive):",
        "-    def vjp_bwd(self, res, g):",
        "+class Mul(HiPrim):",
        "+    def vjp_bwd_retval(self, res, g):",
        "         return (g, g)",
        "",
    ]
)
NO_HJX001 = "\n".join(
    [
        "--- a/{0}",
        "+++ b/{0}",
        "@@ -1,6 +1,6 @@",
        "-from jax.experimental.hijax import VJPHiPrimitive",
        "+from jax.experimental.hijax import HiPrim",
        " ",
        " ",
        "-class Mul(VJPHiPrimitive):",
        "+class Mul(HiPrim):",
        "     def vjp_bwd(self, res, g):",
        "         return (g, g)",
        "",
    ]
)


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return FORKER.module("hijax_migrate", ["--target-jax", "0.12", *args], cwd)


def tree(root: Path, table: str, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[tool.hijax-migrate]\n\n[tool.hijax-migrate.per-file-ignores]\n{table}")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# -- the configuration read


def test_the_table_is_read_into_the_settings_with_selects_parser(tmp_path):
    from hijax_migrate.command import config
    from hijax_migrate.command.usage import settings_of

    tree(tmp_path, '"tests/*" = ["HJX001"]\n"__init__.py" = ["HJX0, old-hiprimitive", "HJX100"]\n', {"ops.py": OLD})
    settings = config.read(settings_of(paths=[str(tmp_path / "ops.py")]))
    assert settings.per_file_ignores == (
        ("tests/*", ("HJX001",)),
        ("__init__.py", ("HJX0", "old-hiprimitive", "HJX100")),
    )
    assert settings.from_config == {"per-file-ignores"} and settings.root == tmp_path.resolve()


def test_a_configuration_named_by_config_is_read_alike(tmp_path):
    from hijax_migrate.command import config
    from hijax_migrate.command.usage import settings_of

    named = tmp_path / "elsewhere" / "pyproject.toml"
    named.parent.mkdir()
    named.write_text('[tool.hijax-migrate.per-file-ignores]\n"*.py" = ["HJX003"]\n')
    (tmp_path / "ops.py").write_text(OLD)
    settings = config.read(settings_of(paths=[str(tmp_path / "ops.py")], config=str(named)))
    assert settings.per_file_ignores == (("*.py", ("HJX003",)),) and settings.root == named.parent.resolve()


@pytest.mark.parametrize(
    "table, error",
    [
        ("", "per-file-ignores in [tool.hijax-migrate] of {0}: must be a table of patterns to lists of codes, not 3"),
        (
            '"tests/*" = "HJX001"\n',
            "per-file-ignores.\"tests/*\" in [tool.hijax-migrate] of {0}: must be a list of strings, not 'HJX001'",
        ),
        (
            '"tests/*" = [1]\n',
            'per-file-ignores."tests/*" in [tool.hijax-migrate] of {0}: must be a list of strings, not [1]',
        ),
        (
            '"tests/*" = ["HJX999"]\n',
            "per-file-ignores.\"tests/*\" in [tool.hijax-migrate] of {0}: unknown rule 'HJX999' (see --list-rules)",
        ),
        (
            '"a/[z-a].py" = ["HJX001"]\n',
            'per-file-ignores."a/[z-a].py" in [tool.hijax-migrate] of {0}: '
            "'a/[z-a].py' is not a pattern (bad character range z-a)",
        ),
        (
            '"{a,b" = ["HJX001"]\n',
            "per-file-ignores.\"{{a,b\" in [tool.hijax-migrate] of {0}: '{{a,b' is not a "
            "pattern (unclosed or nested alternatives at 0)",
        ),
        ('"!" = ["HJX001"]\n', "per-file-ignores.\"!\" in [tool.hijax-migrate] of {0}: '!' is not a pattern (empty)"),
    ],
)
def test_a_bad_table_is_a_usage_error_naming_the_file_and_the_key(tmp_path, table, error):
    """A pattern is a TOML key, always a string: its errors are those of a glob."""
    root = tree(tmp_path, table, {"ops.py": OLD})
    if not table:  # the key given a value of another type, in the tool's own table
        (root / "pyproject.toml").write_text("[tool.hijax-migrate]\nper-file-ignores = 3\n")
    run = cli("--check", ".", cwd=root)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"hijax-migrate: error: {error.format(root / 'pyproject.toml')}\n"


def test_show_settings_shows_the_table_and_where_it_came_from(tmp_path):
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n"!src/**" = ["HJX008", "HJX100"]\n', {"ops.py": OLD})
    source = f"per-file-ignores in [tool.hijax-migrate] of {root / 'pyproject.toml'}"
    lines = cli("--show-settings", ".", cwd=root).stdout.splitlines()
    shown = '{"tests/*": ["HJX001"], "!src/**": ["HJX008", "HJX100"]}'
    assert any(line.startswith("per-file-ignores ") and line.endswith(f"= {shown}  # {source}") for line in lines)
    doc = json.loads(cli("--show-settings", "--output-format", "json", ".", cwd=root).stdout)
    assert doc["per-file-ignores"] == {"value": json.loads(shown), "source": source}
    (root / "pyproject.toml").write_text("")
    doc = json.loads(cli("--show-settings", "--output-format", "json", ".", cwd=root).stdout)
    assert doc["per-file-ignores"] == {"value": {}, "source": "default"}


# -- the patterns, as ruff matches them


def _ignores(root: Path, *rows: tuple[str, tuple[str, ...]]) -> PerFileIgnores:
    return PerFileIgnores(str(root), tuple(rows))


@pytest.mark.parametrize(
    "pattern, matched, unmatched",
    [
        ("tests/*", ["tests/test_a.py", "tests/unit/test_b.py"], ["src/tests.py", "test_a.py", "src/tests/a.py"]),
        ("tests/test_a.py", ["tests/test_a.py"], ["src/tests/test_a.py", "tests/test_b.py"]),
        ("__init__.py", ["__init__.py", "pkg/__init__.py", "pkg/sub/__init__.py"], ["pkg/init.py"]),  # a base name
        ("test_*.py", ["test_a.py", "deep/down/test_a.py"], ["a_test.py"]),  # base name, at any depth
        ("**/conftest.py", ["conftest.py", "a/conftest.py", "a/b/conftest.py"], ["a/conftest.pyi"]),
        ("src/**/legacy_*.py", ["src/legacy_a.py", "src/x/y/legacy_b.py"], ["legacy_a.py", "lib/legacy_a.py"]),
        ("!src/**", ["tests/a.py", "a.py"], ["src/a.py", "src/x/b.py"]),  # negated: neither path nor name match
        ("{src,lib}/[!_]*.py", ["src/a.py", "lib/b.py"], ["src/_a.py", "docs/a.py"]),
        ("./tests/*", ["tests/a.py"], ["a.py"]),  # as ruff: the pattern's path normalised
        ("tests/[ab].py", ["tests/a.py", "tests/b.py"], ["tests/c.py", "tests/ab.py"]),
        ("weird\\*.py", ["weird*.py"], ["weirdo.py"]),  # an escaped star is a star
    ],
)
def test_patterns_match_as_ruffs_do(tmp_path, pattern, matched, unmatched):
    table = _ignores(tmp_path, (pattern, ("HJX001",)))
    assert [name for name in matched + unmatched if table.codes_for(tmp_path / name)] == matched


def test_a_pattern_is_relative_to_the_configurations_folder_and_paths_to_where_the_run_stands(tmp_path):
    (tmp_path / "proj" / "tests").mkdir(parents=True)
    table = _ignores(tmp_path / "proj", ("tests/*", ("HJX001",)))
    assert table.codes_for(tmp_path / "proj" / "tests" / "a.py") == ("HJX001",)
    assert table.codes_for(tmp_path / "tests" / "a.py") == ()  # a tests folder beside the project
    here = os.getcwd()
    try:
        os.chdir(tmp_path / "proj" / "tests")
        assert table.codes_for("a.py") == ("HJX001",)  # a path as named, from where the run stands
    finally:
        os.chdir(here)


@pytest.mark.parametrize(
    "text, acted_on",
    [
        ("class Sub(Base):\n    dce = _dce\n", True),  # HJX010's ``bound dce``: no byte spells the word
        ("if jax.__version__ != '0.11.0':\n    raise ImportError\n", True),  # HJX014's ``compared __version__``
        ("def vjp_bwd(self, res, g):\n    return (g,)\n", True),
        ("x = 1\n", False),
    ],
)
def test_a_files_own_skip_counts_where_it_names_a_rules_word_by_name(tmp_path, text, acted_on):
    """A file's per-file skip spreads over its families where any rule may act on it: the
    words read by their names (``bound dce``, ``compared __version__``), not as bytes, which
    no file holds, so a skip of such a file was dropped."""
    from hijax_migrate.run.family_files import _own
    from hijax_migrate.run.state import Job
    from hijax_migrate.tree.reads import TreeReads

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "a.py").write_text(text)
    options = Options(per_file=_ignores(tmp_path, ("tests/*", ("HJX010",))))
    job = Job(tmp_path / "tests" / "a.py", "tests/a.py", None)
    assert _own(options, job, TreeReads()) == (("HJX010",) if acted_on else ())


def test_the_codes_of_every_pattern_matched_add_up_each_once(tmp_path):
    table = _ignores(tmp_path, ("tests/*", ("HJX001", "HJX003")), ("*.py", ("HJX003", "HJX008")), ("x/*", ("HJX002",)))
    assert table.codes_for(tmp_path / "tests" / "a.py") == ("HJX001", "HJX003", "HJX008")


def test_translate_is_a_whole_match_of_ruffs_glob():
    assert [translate(glob) for glob in ("a*b", "**/x", "[!a-c]", "{a,b?}")] == [
        "a.*b",
        "(?:.*/)?x",
        "[^a-c]",
        "(?:a|b.)",
    ]


def test_options_for_a_file_keep_the_table_so_another_files_are_made_from_them(tmp_path):
    """The one place a file's selection is made: ``Options.for_file``, from the run's
    options or any file's (the decider migrates another file under its own)."""
    options = Options(skip=("HJX008",), per_file=_ignores(tmp_path, ("tests/*", ("HJX001",))))
    test = options.for_file(tmp_path / "tests" / "a.py")
    assert (test.file_skip, test.skipped) == (("HJX001",), ("HJX008", "HJX001"))
    other = test.for_file(tmp_path / "src" / "a.py")
    assert (other.file_skip, other.skipped) == ((), ("HJX008",))
    assert Options().for_file(tmp_path / "tests" / "a.py").skipped == ()


def test_the_cache_key_holds_the_files_own_selection_not_the_whole_table(tmp_path):
    from hijax_migrate.tree.cache import Cache

    one = Cache(tmp_path, Options(per_file=_ignores(tmp_path, ("tests/*", ("HJX001",)))), ())
    other = Cache(tmp_path, Options(per_file=_ignores(tmp_path, ("tests/*", ("HJX001",)), ("x/*", ("HJX003",)))), ())
    assert one._path("a.py", "a", OLD) == other._path("a.py", "a", OLD)  # another file's row: the same entry
    assert one._path("a.py", "a", OLD, ("HJX001",)) != one._path("a.py", "a", OLD)
    assert one._path("a.py", "a", OLD, ("HJX001", "HJX003")) == one._path("a.py", "a", OLD, ("HJX003", "HJX001"))


# -- whole runs


@pytest.fixture
def two_files(tmp_path: Path) -> Path:
    return tree(tmp_path, '"tests/*" = ["HJX001"]\n', {"ops.py": OLD, "tests/test_ops.py": OLD})


def test_a_matching_file_runs_without_the_rule_while_another_is_migrated_by_it(two_files):
    run = cli(".", cwd=two_files)
    assert run.returncode == 1
    assert run.stdout == EVERY_RULE.format("ops.py") + NO_HJX001.format("tests/test_ops.py")
    assert "HJX001 bwd-returns-cotangents: 1\n  HJX003 hiprim-base: 4\n" in run.stderr
    written = cli("--in-place", ".", cwd=two_files)
    assert written.returncode == 0 and written.stdout == ""
    assert (two_files / "ops.py").read_text() == OLD.replace("VJPHiPrimitive", "HiPrim").replace("bwd(", "bwd_retval(")
    assert (two_files / "tests" / "test_ops.py").read_text() == OLD.replace("VJPHiPrimitive", "HiPrim")


def test_a_file_runs_as_under_ignore_for_it_alone(two_files):
    """The file's result, its diff and its summary, is the one ``--ignore`` gives it."""
    per_file = cli("tests/test_ops.py", cwd=two_files)
    (two_files / "pyproject.toml").write_text("[tool.hijax-migrate]\n")
    ignored = cli("--ignore", "HJX001", "tests/test_ops.py", cwd=two_files)
    assert (
        (per_file.returncode, per_file.stdout)
        == (ignored.returncode, ignored.stdout)
        == (1, NO_HJX001.format("tests/test_ops.py"))
    )
    assert per_file.stderr.splitlines()[1:] == ignored.stderr.splitlines()[1:]  # but the target's source line


def test_check_exit_code_follows_the_ignores(tmp_path):
    root = tree(tmp_path, '"tests/*" = ["bwd-returns-cotangents"]\n', {"tests/test_mul.py": HIPRIM})
    assert (cli("--check", ".", cwd=root).returncode, cli("--check", ".", cwd=root).stdout) == (0, "")
    (root / "pyproject.toml").write_text("[tool.hijax-migrate]\n")
    run = cli("--check", ".", cwd=root)
    assert (run.returncode, run.stdout) == (1, "tests/test_mul.py\n")


def test_json_reports_each_files_own_changes(two_files):
    doc = json.loads(cli("--output-format", "json", ".", cwd=two_files).stdout)
    changes = sorted((c["file"], c["line"], c["rule"]) for c in doc["changes"])
    assert changes == [
        ("ops.py", 1, "HJX003"),
        ("ops.py", 4, "HJX003"),
        ("ops.py", 5, "HJX001"),
        ("tests/test_ops.py", 1, "HJX003"),
        ("tests/test_ops.py", 4, "HJX003"),
    ]
    assert doc["summary"]["files_changed"] == 2


def test_a_changed_table_is_never_answered_from_the_cache(two_files):
    first = cli(".", cwd=two_files)
    assert first.stdout == EVERY_RULE.format("ops.py") + NO_HJX001.format("tests/test_ops.py")
    assert any(Path(os.environ["HIJAX_MIGRATE_CACHE_DIR"]).rglob("*"))  # the results were kept
    (two_files / "pyproject.toml").write_text('[tool.hijax-migrate.per-file-ignores]\n"ops.py" = ["HJX001"]\n')
    second = cli(".", cwd=two_files)
    assert second.stdout == NO_HJX001.format("ops.py") + EVERY_RULE.format("tests/test_ops.py")
    (two_files / "pyproject.toml").write_text("[tool.hijax-migrate]\n")
    assert cli(".", cwd=two_files).stdout == EVERY_RULE.format("ops.py") + EVERY_RULE.format("tests/test_ops.py")
    (two_files / "pyproject.toml").write_text('[tool.hijax-migrate.per-file-ignores]\n"tests/*" = ["HJX001"]\n')
    again = cli(".", cwd=two_files)
    assert (again.returncode, again.stdout) == (1, first.stdout)


def test_a_file_with_no_word_left_to_it_is_not_a_candidate(tmp_path):
    """The prefilter asks a file the words of its own selection: with every rule
    that names its words skipped, it is scanned but never triaged (as under ``--ignore``)."""
    root = tree(
        tmp_path, '"tests/*" = ["HJX001"]\n', {"tests/calls.py": "def f(op, res, g):\n    return op.vjp_bwd(res, g)\n"}
    )
    per_file = cli(".", cwd=root)
    (root / "pyproject.toml").write_text("[tool.hijax-migrate]\n")
    ignored = cli("--ignore", "HJX001", ".", cwd=root)
    assert (per_file.returncode, per_file.stdout) == (ignored.returncode, ignored.stdout) == (0, "")
    assert per_file.stderr.splitlines()[1:] == ignored.stderr.splitlines()[1:]


def test_a_rule_skipped_in_one_file_of_a_family_is_skipped_in_all(tmp_path):
    """A base renamed while its subclass, in a file that skips HJX001, keeps
    ``vjp_bwd`` would change the subclass's gradient: the family keeps it in both."""
    files = {"pkg/__init__.py": "", "pkg/base.py": OLD.replace("Mul", "Base"), "tests/test_sub.py": SUB}
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n', files)
    for named in (["."], ["pkg/base.py"], ["tests/test_sub.py"]):
        run = cli(*named, cwd=root)
        assert run.returncode == 1
        assert run.stdout == NO_HJX001.format("pkg/base.py").replace("Mul", "Base"), named
        assert (
            "note: pkg/base.py:4: Base: HJX001 not run in this file: `Sub`, of its family, is in tests/test_sub.py, "
            "which runs without it (per-file-ignores), and a family is migrated whole\n"
        ) in run.stderr
    (root / "pyproject.toml").write_text("[tool.hijax-migrate]\n")
    whole = cli(".", cwd=root).stdout
    assert "+    def vjp_bwd_retval(self, res, g):\n" in whole and "tests/test_sub.py" in whole


def test_a_suppression_of_a_skipped_rule_is_unused_and_hjx100_may_be_skipped_too(tmp_path):
    marked = OLD.replace("class Mul(VJPHiPrimitive):", "class Mul(VJPHiPrimitive):  # noqa: HJX001")
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n', {"tests/test_ops.py": marked})
    run = cli("--extend-select", "HJX100", ".", cwd=root)
    note = (
        "note: tests/test_ops.py:4: HJX100 unused suppression `# noqa: HJX001`: "
        "nothing of HJX001 is suppressed here at the target\n"
    )
    assert note in run.stderr
    (root / "pyproject.toml").write_text('[tool.hijax-migrate.per-file-ignores]\n"tests/*" = ["HJX001", "HJX100"]\n')
    quiet = cli("--extend-select", "HJX100", ".", cwd=root)
    assert "HJX100" not in quiet.stderr and quiet.stdout == run.stdout


TWO = (
    OLD.replace("Mul", "Base") + "\n\nclass Two(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n"
)
TWO_SUB = "from pkg.base import Two\n\n\nclass TwoSub(Two):\n    def vjp_bwd(self, res, g):\n        return (g * 3,)\n"
# pkg/base.py at 0.12 without HJX001: its bases renamed, both value rules kept.
TWO_NO_HJX001 = "\n".join(
    [
        "--- a/pkg/base.py",
        "+++ b/pkg/base.py",
        "@@ -1,11 +1,11 @@",
        "-from jax.experimental.hijax import VJPHiPrimitive",
        "+from jax.experimental.hijax import HiPrim",
        " ",
        " ",
        "-class Base(VJPHiPrimitive):",
        "+class Base(HiPrim):",
        "     def vjp_bwd(self, res, g):",
        "         return (g, g)",
        " ",
        " ",
        "-class Two(VJPHiPrimitive):",
        "+class Two(HiPrim):",
        "     def vjp_bwd(self, res, g):",
        "         return (g,)",
        "",
    ]
)


@pytest.mark.parametrize("named", [".", "pkg/two_sub.py"])
def test_the_skip_spreads_through_families_in_turn_even_from_outside_a_partial_run(tmp_path, named):
    """tests/test_sub.py skips HJX001: its family (Base) keeps ``vjp_bwd``, so
    pkg/base.py does, so its other family (Two, TwoSub) does. A run over
    pkg/two_sub.py alone (pkg/base.py taken in with its family) knows it too."""
    files = {"pkg/__init__.py": "", "pkg/base.py": TWO, "pkg/two_sub.py": TWO_SUB, "tests/test_sub.py": SUB}
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n', files)
    run = cli(named, cwd=root)
    assert (run.returncode, run.stdout) == (1, TWO_NO_HJX001)
    assert (
        "note: pkg/two_sub.py:4: TwoSub: HJX001 not run in this file: `Two`, of its family, is in pkg/base.py, "
        "which runs without it (per-file-ignores), and a family is migrated whole\n"
    ) in run.stderr
    assert "note: pkg/base.py:4: Base: HJX001 not run in this file: `Sub`, of its family, is in tests/test_sub.py" in (
        run.stderr
    )
    written = cli("--in-place", named, cwd=root)
    assert written.returncode == 0
    assert (root / "pkg/two_sub.py").read_text() == TWO_SUB and (root / "tests/test_sub.py").read_text() == SUB


def test_stdin_runs_under_the_rows_its_stdin_filename_matches(tmp_path):
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n', {})
    args = ["--target-jax", "0.12", "--diff", "--stdin-filename"]
    ignored = FORKER.module("hijax_migrate", [*args, "tests/test_mul.py", "-"], root, HIPRIM)
    assert (ignored.returncode, ignored.stdout) == (0, "")
    migrated = FORKER.module("hijax_migrate", [*args, "mul.py", "-"], root, HIPRIM)
    assert migrated.returncode == 1 and "+    def vjp_bwd_retval(self, res, g):\n" in migrated.stdout


def test_serial_parallel_and_warm_runs_agree(tmp_path):
    """Enough candidates that triage and the migration run on every core
    (``runner._PARALLEL_TRIAGE``): each worker takes each file's own rules."""
    files = {f"ops{i}.py": OLD.replace("Mul", f"Mul{i}") for i in range(13)}
    files |= {f"tests/test_ops{i}.py": OLD.replace("Mul", f"Mul{i}") for i in range(13)}
    root = tree(tmp_path, '"tests/*" = ["HJX001"]\n', files)
    serial = cli("--no-cache", "-j", "1", ".", cwd=root)
    assert serial.stdout.count("+    def vjp_bwd_retval(self, res, g):\n") == 13
    assert serial.stdout.count("+class Mul") == 26
    for run in (cli("-j", "2", ".", cwd=root), cli("-j", "2", ".", cwd=root)):  # the second from the cache
        assert (run.returncode, run.stdout, run.stderr) == (serial.returncode, serial.stdout, serial.stderr)
