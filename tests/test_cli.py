"""The command line, run as a user runs it: real files, a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_runs import FORKER
from terminal import on_a_terminal

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
"""
LOOKALIKE = """class Quant:
    def vjp_bwd(self, res, g):
        return (g, None)
"""


def cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m hijax_migrate ARGS``, in a fresh process (``fresh_runs``)."""
    return FORKER.module("hijax_migrate", args, cwd, stdin)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ops.py").write_text(OLD)
    (tmp_path / "pkg" / "quant.py").write_text(LOOKALIKE)
    return tmp_path


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_dry_run_prints_diff_and_writes_nothing(tree):
    before = snapshot(tree)
    run = cli("pkg", "--target-jax", "0.10", cwd=tree)
    assert run.returncode == 1
    assert "--- a/pkg/ops.py\n+++ b/pkg/ops.py\n" in run.stdout
    assert "-    def vjp_bwd(self, res, g):\n+    def vjp_bwd_retval(self, res, g):" in run.stdout
    assert "quant.py" not in run.stdout
    assert "would migrate 1 file" in run.stderr and "target: jax 0.10.0 (--target-jax)" in run.stderr
    assert snapshot(tree) == before


def test_in_place_writes_then_nothing_is_left(tree):
    run = cli("--in-place", "pkg", "--target-jax", "0.10", cwd=tree)
    assert run.returncode == 0, run.stderr
    assert "def vjp_bwd_retval(self, res, g):" in (tree / "pkg" / "ops.py").read_text()
    assert (tree / "pkg" / "quant.py").read_text() == LOOKALIKE
    again = cli("--check", "pkg", "--target-jax", "0.10", cwd=tree)
    assert again.returncode == 0 and again.stdout == ""


def test_check_lists_files_one_per_line(tree):
    (tree / "pkg" / "more.py").write_text(OLD)
    run = cli("--check", "pkg", "--target-jax", "0.10", cwd=tree)
    assert run.returncode == 1
    assert run.stdout.splitlines() == ["pkg/more.py", "pkg/ops.py"]


def test_stdin_to_stdout(tree):
    run = cli("-", "--target-jax", "0.10", cwd=tree, stdin=OLD)
    assert run.returncode == 0
    assert run.stdout == OLD.replace("def vjp_bwd(", "def vjp_bwd_retval(")
    check = cli("--check", "-", "--target-jax", "0.10", cwd=tree, stdin=OLD)
    assert check.returncode == 1


def test_stdin_error_gives_input_back(tree):
    run = cli("-", cwd=tree, stdin="def broken(:\n")
    assert run.returncode == 3
    assert run.stdout == "def broken(:\n"
    assert "error: -:1: syntax error" in run.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--strategy", "sideways", "x.py"],
        ["--select", "HJX999", "x.py"],
        ["missing.py"],
        ["-", "x.py"],
        ["--target-jax", "banana", "x.py"],
    ],
)
def test_usage_errors_exit_2(tree, args):
    assert cli(*args, cwd=tree).returncode == 2


def test_unprocessable_file_is_named_and_others_still_handled(tree):
    (tree / "pkg" / "broken.py").write_text("from jax.experimental.hijax import VJPHiPrimitive\nclass X(:\n")
    run = cli("--in-place", "pkg", "--target-jax", "0.10", cwd=tree)
    assert run.returncode == 3
    assert "error: pkg/broken.py:2: syntax error" in run.stderr
    assert "vjp_bwd_retval" in (tree / "pkg" / "ops.py").read_text()


def test_json_report(tree):
    run = cli("--output-format", "json", "pkg", "--target-jax", "0.10", cwd=tree)
    doc = json.loads(run.stdout)
    assert doc["changes"] == [
        {
            "file": "pkg/ops.py",
            "line": 5,
            "rule": "HJX001",
            "name": "bwd-returns-cotangents",
            "class": "Mul",
            "cell": None,
            "action": "renamed `vjp_bwd` to `vjp_bwd_retval`",
        }
    ]
    assert doc["summary"]["files_changed"] == 1


def test_json_lines_of_module_wide_renames(tree):
    doc = json.loads(cli("--output-format", "json", "pkg", "--target-jax", "0.12", cwd=tree).stdout)
    lines = {(c["rule"], c["line"]) for c in doc["changes"]}
    assert lines == {("HJX003", 1), ("HJX003", 4), ("HJX001", 5)}
    assert doc["summary"]["rules"] == {"HJX001": 1, "HJX003": 2}


def test_github_annotations(tree):
    run = cli("--output-format", "github", "pkg", "--target-jax", "0.10", cwd=tree)
    assert run.stdout.startswith("::warning file=pkg/ops.py,line=5,title=HJX001 bwd-returns-cotangents::")


def test_select_and_ignore(tree):
    assert cli("--check", "--ignore", "HJX001", "pkg", "--target-jax", "0.10", cwd=tree).returncode == 0
    assert cli("--check", "--select", "bwd-returns-cotangents", "pkg", "--target-jax", "0.10", cwd=tree).returncode == 1


def test_target_from_project_pin(tree):
    (tree / "pyproject.toml").write_text('[project]\ndependencies = ["jax==0.9.0"]\n')
    run = cli("--check", "pkg", cwd=tree)
    assert "target: jax 0.9.0 (pinned in" in run.stderr


def test_colour_always_and_never(tree):
    coloured = cli("--color", "always", "pkg", "--target-jax", "0.10", cwd=tree)
    assert "\x1b[31m-    def vjp_bwd(self, res, g):\x1b[0m" in coloured.stdout
    assert "\x1b[32m+    def vjp_bwd_retval(self, res, g):\x1b[0m" in coloured.stdout
    plain = cli("--color", "never", "pkg", "--target-jax", "0.10", cwd=tree)
    assert "\x1b[" not in plain.stdout


def test_black_follows_the_project_config_and_touches_changed_lines_only(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 40\nskip-string-normalization = true\n")
    source = (
        "from jax.experimental.hijax import VJPHiPrimitive\nkeep = {'a':1}\n\n\n"
        "class Op(VJPHiPrimitive):\n    def vjp_fwd(self, nzs_in, x):\n        return x, x\n\n"
        "    def vjp_bwd(self, res, g):\n        return (g*res*'scale'*another_factor,)\n"
    )
    (tmp_path / "op.py").write_text(source)
    assert (
        cli(
            "--in-place", "-q", "--black", "--strategy", "accum", "--target-jax", "0.10", "op.py", cwd=tmp_path
        ).returncode
        == 0
    )
    out = (tmp_path / "op.py").read_text()
    assert "keep = {'a':1}\n" in out  # not a changed line: not formatted
    assert (
        "        x_acc.accum(\n            g\n            * res\n            * 'scale'\n"
        "            * another_factor\n        )\n"
    ) in out  # 40 columns, quotes kept
    (tmp_path / "op.py").write_text(source)
    cli("--in-place", "-q", "--strategy", "accum", "--target-jax", "0.10", "op.py", cwd=tmp_path)
    assert "        x_acc.accum(g*res*'scale'*another_factor)\n" in (tmp_path / "op.py").read_text()


def test_colour_auto_on_a_terminal_unless_no_color(tree):
    args = ["pkg", "--target-jax", "0.10"]
    assert "\x1b[31m-    def vjp_bwd(self, res, g):" in on_a_terminal(args, tree)
    assert "\x1b[" not in on_a_terminal(args, tree, env={"NO_COLOR": "1"})
    assert "\x1b[" not in cli(*args, cwd=tree).stdout  # piped


# -- what ruff and black users type


def test_diff_is_the_dry_run(tree):
    before = snapshot(tree)
    run = cli("--diff", "pkg", "--target-jax", "0.10", cwd=tree)
    assert run.returncode == 1 and "+    def vjp_bwd_retval(self, res, g):" in run.stdout
    assert snapshot(tree) == before
    both = cli("--diff", "--check", "pkg", "--target-jax", "0.10", cwd=tree)  # black's CI pair: the diff, exit 1
    assert both.returncode == 1 and both.stdout == run.stdout
    assert snapshot(tree) == before


def test_exit_zero(tree):
    for mode in ("--check", "--diff"):
        run = cli(mode, "--exit-zero", "pkg", "--target-jax", "0.10", cwd=tree)
        assert run.returncode == 0 and "pkg/ops.py" in run.stdout
    (tree / "pkg" / "broken.py").write_text("from jax.experimental.hijax import VJPHiPrimitive\nclass X(:\n")
    assert cli("--check", "--exit-zero", "pkg", cwd=tree).returncode == 3  # errors still count


def test_each_file_is_processed_once_however_named(tree):
    run = cli("pkg", "pkg/ops.py", "./pkg/ops.py", "pkg/../pkg", "--target-jax", "0.10", cwd=tree)
    assert run.stdout.count("+++ b/") == 1
    applied = subprocess.run(
        ["git", "apply", "--check", "-"], cwd=tree, input=run.stdout, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stderr


def test_force_exclude_applies_excludes_to_named_files(tree):
    (tree / "pyproject.toml").write_text('[tool.hijax-migrate]\ntarget-jax = "0.10"\nexclude = ["pkg/ops.py"]\n')
    assert cli("--check", "pkg/ops.py", cwd=tree).stdout.split() == ["pkg/ops.py"]  # named: taken
    assert cli("--check", "pkg", cwd=tree).stdout == ""  # walked: excluded
    forced = cli("--check", "--force-exclude", "pkg/ops.py", cwd=tree)
    assert (forced.returncode, forced.stdout) == (0, "")


def test_stdin_filename_is_used_for_pins_bases_and_messages(tree):
    (tree / "pkg" / "bases.py").write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
    )
    (tree / "pyproject.toml").write_text('[project]\ndependencies = ["jax==0.10.2"]\n')
    source = "from pkg.bases import Base\n\n\nclass Op(Base):\n    def vjp_bwd(self, res, g):\n        return (g,)\n"
    run = cli("--stdin-filename", "pkg/new.py", "-", cwd=tree, stdin=source)
    assert run.returncode == 0 and "def vjp_bwd_retval(self, res, g):" in run.stdout  # base found in pkg/
    plain = cli("-", "--target-jax", "0.10", cwd=tree, stdin=source)
    assert plain.stdout == source  # without the name, the base is unknown
    broken = cli("--stdin-filename", "pkg/new.py", "-", cwd=tree, stdin="def broken(:\n")
    assert "error: pkg/new.py:1: syntax error" in broken.stderr


def test_stdin_filename_picks_notebook_or_markdown(tree):
    markdown = "# Title\n\n```python\n" + OLD + "```\n"
    run = cli("--stdin-filename", "doc.md", "--target-jax", "0.10", "-", cwd=tree, stdin=markdown)
    assert run.stdout == markdown.replace("def vjp_bwd(", "def vjp_bwd_retval(")
    (tree / "pyproject.toml").write_text('[tool.hijax-migrate]\nexclude = ["doc.md"]\n')
    excluded = cli("--stdin-filename", "doc.md", "--force-exclude", "-", cwd=tree, stdin=markdown)
    assert (excluded.returncode, excluded.stdout) == (0, markdown)


@pytest.mark.parametrize(
    "args, complaint",
    [
        (["--jobs", "0", "pkg"], "must be 1 or more"),
        (["--jobs", "-3", "pkg"], "must be 1 or more"),
        (["-i", "-"], "stdin cannot be written back"),
        (["--in-place", "-"], "stdin cannot be written back"),
        (["--stdin-filename", "x.py", "pkg"], "give '-'"),
    ],
)
def test_more_usage_errors(tree, args, complaint):
    run = cli(*args, cwd=tree, stdin=OLD)
    assert run.returncode == 2 and complaint in run.stderr


def test_jobs_beyond_the_file_count_are_fine(tree):
    assert cli("--check", "-j", "64", "pkg", "--target-jax", "0.10", cwd=tree).stdout.split() == ["pkg/ops.py"]


def test_black_missing_is_a_usage_error_with_the_install_command(tree):
    hide_black = (
        "import sys; sys.modules['black'] = None; del sys.path[0]; from hijax_migrate.cli import main; sys.exit(main())"
    )
    run = FORKER.code(hide_black, ["--black", "--in-place", "pkg"], tree)
    assert run.returncode == 2 and "pip install 'hijax-migrate[black]'" in run.stderr
    assert run.stderr.count("error") == 1 and (tree / "pkg" / "ops.py").read_text() == OLD


# -- GitHub workflow commands: properties and messages escaped


def _github(file: str, line: int = 3, rule: str = "HJX001", message: str = "m") -> str:
    from hijax_migrate.core.model import Finding
    from hijax_migrate.output.report import Outcome, as_github

    return as_github([Outcome(file, findings=[Finding(file, line, message, rule)])])


@pytest.mark.parametrize("raw, escaped", [("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")])
def test_github_properties_are_escaped(raw, escaped):
    out = _github(f"a{raw}b.py", rule=f"R{raw}1")
    assert out == f"::warning file=a{escaped}b.py,line=3,title=R{escaped}1::m"


@pytest.mark.parametrize("raw, escaped", [("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", ":"), (",", ",")])
def test_github_messages_are_escaped(raw, escaped):
    assert _github("a.py", message=f"x{raw}y").endswith(f"::x{escaped}y")


def test_a_file_name_cannot_start_a_workflow_command(tree):
    name = "pkg/evil,line=1\n::error file=x::pwned%0A.py"
    (tree / name).write_text(OLD)
    run = cli("--output-format", "github", "--target-jax", "0.10", name, cwd=tree)
    assert len(run.stdout.splitlines()) == 1
    assert run.stdout.startswith("::warning file=pkg/evil%2Cline=1%0A%3A%3Aerror file=x%3A%3Apwned%250A.py,line=5,")


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# t\n"]},
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": OLD.splitlines(keepends=True),
        },
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": ["%%bash\n", "echo vjp_bwd\n"],
        },
    ],
    "metadata": {"kernelspec": {"language": "python", "name": "python3", "display_name": "P"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_json_notebook_entries_carry_cell_and_line(tree):
    (tree / "nb.ipynb").write_text(json.dumps(NOTEBOOK, indent=1) + "\n")
    doc = json.loads(cli("--output-format", "json", "--target-jax", "0.10", "nb.ipynb", "pkg", cwd=tree).stdout)
    places = {(c["file"], c["cell"], c["line"]) for c in doc["changes"]}
    assert places == {("nb.ipynb", 2, 5), ("pkg/ops.py", None, 5)}
    assert [(w["file"], w["cell"], w["line"]) for w in doc["warnings"]] == [("nb.ipynb", 3, 0)]
    assert doc["warnings"][0]["rule"] == "" and "cell 3: left as it is" in doc["warnings"][0]["message"]


def test_the_readme_libcst_codemod_command_works_as_written(tmp_path):
    import re
    import shlex

    usage = (Path(__file__).resolve().parents[1] / "docs" / "usage.md").read_text()
    command = re.search(r"^python -m libcst\.tool codemod .*$", usage, re.M).group(0)
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax==0.8.2"]\n')
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "src" / "pkg" / "bases.py").write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
    )
    op = (
        "from pkg.bases import Base\n\n\nclass Op(Base):\n    def vjp_fwd(self, x):\n        return x, None\n\n"
        "    def vjp_bwd(self, res, g):\n        return (g,)\n"
    )
    (tmp_path / "src" / "pkg" / "ops.py").write_text(op)
    run = subprocess.run([sys.executable, *shlex.split(command)[1:]], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # the base is in another file; the pin is the project's (0.8.2: vjp_fwd takes no nzs_in yet)
    assert (tmp_path / "src" / "pkg" / "ops.py").read_text() == op.replace("def vjp_bwd(", "def vjp_bwd_retval(")


def test_the_libcst_codemod_reads_the_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.hijax-migrate]\ntarget-jax = "0.10"\nbase = ["vendor_lib.PrimBase"]\nexclude = ["/gen/"]\n'
    )
    custom = (
        "from vendor_lib import PrimBase\n\n\nclass Op(PrimBase):\n    def vjp_bwd(self, res, g):\n"
        "        return (g,)\n"
    )
    for folder in ("src", "gen"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "ops.py").write_text(custom)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "libcst.tool",
            "codemod",
            "-x",
            "hijax_migrate.codemod.HijaxMigrateCommand",
            "--no-format",
            ".",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "def vjp_bwd_retval" in (tmp_path / "src" / "ops.py").read_text()  # the configured base
    assert (tmp_path / "gen" / "ops.py").read_text() == custom  # excluded


# -- The command's exit: no interpreter teardown, nothing lost

MAIN = "import sys; del sys.path[0]; from hijax_migrate.cli import main; sys.exit(main())"
RUN = (
    "import atexit, sys; atexit.register(print, 'teardown ran', file=sys.stderr); del sys.path[0]; "
    "from hijax_migrate.cli import run; run()"
)


@pytest.mark.parametrize(
    "args, code",
    [
        (["--diff", "--target-jax", "0.10", "pkg"], 1),
        (["--check", "pkg/quant.py"], 0),
        (["--target-jax", "0.x", "pkg"], 2),
        (["bad.py"], 3),
    ],
)
def test_the_command_skips_the_teardown_and_loses_no_output(tree, args, code):
    """The console script's exit (``exit_now``) runs no teardown (the atexit
    handler stays silent), and the output, longer than a pipe holds, and the
    exit code are ``main()``'s."""
    classes = "".join(OLD.split("\n\n\n")[1].replace("class Mul", f"class Mul{n}") + "\n\n" for n in range(30))
    for n in range(20):
        (tree / "pkg" / f"ops{n}.py").write_text(OLD + "\n\n" + classes)
    (tree / "bad.py").write_text(OLD.replace("(self, res, g)", "(self, res, g("))
    fast, whole = (
        subprocess.run([sys.executable, "-c", command, *args], cwd=tree, capture_output=True, text=True)
        for command in (RUN, MAIN)
    )
    assert fast.returncode == whole.returncode == code
    assert fast.stdout == whole.stdout and fast.stderr == whole.stderr.replace("teardown ran\n", "")
    assert "teardown ran" not in fast.stderr
    if code == 1:
        assert len(fast.stdout) > 1 << 16


def test_the_bench_times_the_hook_as_it_is_installed():
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    try:
        import bench
    finally:
        sys.path.pop(0)
    from hijax_migrate.git.hooks import script

    assert f"run='{bench.HOOK[2]}'" in script("pre-push", sys.executable, False)


@pytest.mark.parametrize(
    "args, code", [(["--diff", "--target-jax", "0.10", "pkg"], 1), (["--target-jax", "0.10", "-"], 0)]
)
def test_a_reader_that_stops_reading_ends_no_run_with_a_traceback(tree, args, code):
    """``hijax-migrate --diff | head``: once the reader is gone the output goes
    nowhere, and the run ends as it would have: warnings, summary, exit code."""
    classes = "\n\n".join(OLD.replace("class Mul", f"class Mul{n}") for n in range(600))  # 80 kB, migrated
    for n in range(2):
        (tree / "pkg" / f"ops{n}.py").write_text(classes[: len(classes) // 2])  # each diff 60 kB
    process = subprocess.Popen(
        [sys.executable, "-m", "hijax_migrate", *args],
        cwd=tree,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if "-" in args:
        process.stdin.write(classes.encode())
    process.stdin.close()
    assert len(process.stdout.read(100)) == 100  # more than a pipe holds is still to come
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait() == code
    assert "Traceback" not in err and "Broken pipe" not in err and "Exception ignored" not in err
    if "-" not in args:
        assert "would migrate 3 files" in err
