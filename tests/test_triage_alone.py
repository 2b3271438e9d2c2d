"""HJX001's decision on a half-ported rule read by triage itself (``half_ported.alone``):
where it edits nothing, a note or a refusal, triage reports the migration's words and
the file never reaches libcst; anything the decision cannot settle alone goes on to
the migration. jax 0.12's ``ad_checkpoint.py`` is the shape: ``*arg_accums`` handed to
a call, the logs it returns kept."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import rule_programs
from hijax_migrate.analysis.project import Project
from hijax_migrate.engine.triage import triage_of
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from test_golden import options_for

from golden import left_alone

ROOT = Path(__file__).resolve().parents[1]

HEAD = "from jax.experimental.hijax import HiPrim\n\nclass Remat(HiPrim):\n"
LOGS = HEAD + textwrap.indent(
    textwrap.dedent(
        """\
        def vjp_fwd(self, nzs_in, *primals):
            return primals, None, None

        def vjp_bwd(self, res, outgrad, *arg_accums):
            bwd = res.func()
            _, logs = bwd.with_refs(*arg_accums)(outgrad)
            return logs
        """
    ),
    "    ",
)


@pytest.mark.parametrize(
    ("source", "reported"),
    [
        (LOGS, "note"),  # handed on every path, returns no tuple: logs, kept
        (LOGS.replace("return logs", "return logs, logs"), "error"),  # a tuple: cotangents, not told where written
        (LOGS.replace("bwd.with_refs(*arg_accums)(outgrad)", "bwd(outgrad), 1"), None),  # writes to make
    ],
)
def test_triage_reports_what_the_migration_says(source, reported):
    options = options_for(["--target-jax", "0.12"])
    report, acting = triage_of(source, "remat.py", options, Project())
    if reported is None:
        assert report is None and acting == {"HJX001"}  # edits: the migration's
        return
    assert report is not None and [f.severity for f in report.findings] == [reported]
    assert report.findings[0].line == 7 and report.findings[0].message.startswith("Remat: `")
    left_alone(source, "remat.py", options, "0.12", report.findings)  # the migration's own words


def test_a_mark_or_another_rule_sends_the_file_on():
    options = options_for(["--target-jax", "0.12"])
    marked = LOGS.replace(
        "def vjp_bwd(self, res, outgrad, *arg_accums):",
        "def vjp_bwd(self, res, outgrad, *arg_accums):  # hijax-migrate: skip",
    )
    assert triage_of(marked, "remat.py", options, Project())[0] is None
    older = LOGS.replace("import HiPrim", "import VJPHiPrimitive").replace("(HiPrim)", "(VJPHiPrimitive)")
    report, acting = triage_of(older, "remat.py", options, Project())
    assert report is None and len(acting) > 1  # the base's rename too: the migration's


def test_the_file_never_reaches_libcst(tmp_path):
    (tmp_path / "remat.py").write_text(LOGS)
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        "try:\n    rc = main(['--check', '--no-cache', '-j1', '--target-jax', '0.12', sys.argv[1]])\n"
        "except SystemExit as stop:\n    rc = stop.code\n"
        "print('rc', rc, 'libcst' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "remat.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "codemods"), "PATH": "/usr/bin:/bin"},
    )
    assert "rc 0 False" in run.stdout, run.stdout + run.stderr
    assert "read as backward-pass logs" in run.stderr


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("if c:\n    def vjp_bwd(self, res, g):\n        return (g,)", "hidden"),
        ("vjp_bwd = _bwd", "bound"),
        ("def vjp_bwd(self, res, g, acc):\n    acc.accum(g)", "nothing"),
        ("def vjp_bwd(self, res, g):\n    return (g,)\n_ref = vjp_bwd", "alias"),
        ("def vjp_bwd(self, res, *args):\n    return args", "old form"),
        ("def vjp_bwd(self, res, g, acc):\n    return (g,)", "half-ported"),
        ("def vjp_bwd(self, res, g):\n    return (g,)", "value"),
    ],
)
def test_where_the_plan_of_a_primitive_goes_first(body, kind):
    """``half_ported.head``: the steps the rewrite's ``plan_class`` and triage take alike."""
    import ast

    from hijax_migrate.rules.bwd_returns_cotangents.half_ported import head
    from hijax_migrate.rules.rule_sight import Sight

    node = ast.parse("class Op:\n" + textwrap.indent(body, "    ")).body[0]
    sight = Sight(
        Project(), {}, {}, [], lambda: None, lambda attr: [], (0, 12, 0), str.isidentifier, bool, len, "m.py", list
    )
    assert head(sight, node, None).kind == kind


def test_a_line_triage_cannot_name_as_the_migration_sends_the_file_on():
    """The rule's name on the line after ``def``: the migration names the name's line
    (libcst's positions); triage does not guess it."""
    options = options_for(["--target-jax", "0.12"])
    split = LOGS.replace("def vjp_bwd(self", "def \\\n    vjp_bwd(self")
    assert triage_of(split, "remat.py", options, Project())[0] is None
    crlf = LOGS.replace("\n", "\r\n")
    report, _ = triage_of(crlf, "remat.py", options, Project())
    assert report is not None and report.findings[0].line == 7
    left_alone(crlf, "remat.py", options, "0.12", report.findings)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(code=rule_programs.programs(), target=st.sampled_from(["0.10", "0.12"]))
def test_drawn_rules_triage_reports_alone_are_the_migrations(code, target):
    """Rules in every form that once gave wrong gradients (``rule_programs``, half-ports
    with each kind of accumulator use): where triage reports a file alone, the migration
    leaves it byte for byte and says the same (a report where the migration edits would
    be a silent miss)."""
    options = options_for(["--target-jax", target])
    report, _ = triage_of(code, "prog.py", options, Project())
    if report is not None:
        left_alone(code, "prog.py", options, target, report.findings)


def test_the_drawn_rules_reach_triage_alone():
    """The generator above draws files triage reports alone, with a finding: it tests the path."""
    options = options_for(["--target-jax", "0.10"])

    def alone(code: str) -> bool:
        report, _ = triage_of(code, "prog.py", options, Project())
        return report is not None and bool(report.findings)

    found = find(rule_programs.programs(), alone, settings=settings(max_examples=400, database=None, derandomize=True))
    assert "vjp_bwd" in found
