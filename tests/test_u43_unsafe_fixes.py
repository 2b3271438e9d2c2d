"""Unsafe fixes (issue 43, ``engine/unsafe.py``): a refusal's candidate rename, shown and
never written without ``--unsafe-fixes``; written with it, and right under real jax.

The command line over tmp trees, one for each form the candidate answers: without the flag
every byte stays and ``--check`` exits 1; with ``--in-place --unsafe-fixes`` the file is
renamed and ``--check`` passes after. JSON gives each fix's applicability and reason. Then
programs of the repository's generator (``benchmarks/namespaces.py``), refused by the tool,
migrated with their unsafe fixes and run under jax 0.10 (here) and 0.12 (``HIJAX_PY312``):
the generator's own gradient check must pass.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.core.model import ERROR, FileReport, Finding, Result
from hijax_migrate.engine import unsafe
from jax_batch import HAS_JAX_HERE, JAX_012, PY312

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import namespaces  # noqa: E402 (found through the path set above)
import refusals  # noqa: E402

SETATTR = """from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (3 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, "vjp_bwd", _bwd)
"""
METACLASS = """from jax.experimental.hijax import VJPHiPrimitive


class _Clipped(type):
    def __new__(mcs, name, bases, ns):
        rule = ns.get("vjp_bwd")
        if rule is not None:
            ns["vjp_bwd"] = lambda self, res, g: tuple(0.5 * ct for ct in rule(self, res, g))
        return super().__new__(mcs, name, bases, ns)


class Op(VJPHiPrimitive, metaclass=_Clipped):
    def vjp_bwd(self, res, g):
        return (3 * g,)
"""
DECORATOR = """from jax.experimental.hijax import VJPHiPrimitive


def _clipped(cls):
    rule = cls.__dict__.get("vjp_bwd")
    setattr(cls, "vjp_bwd", lambda self, res, g: tuple(0.5 * ct for ct in rule(self, res, g)))
    return cls


@_clipped
class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (3 * g,)


class QuantOp:
    def vjp_bwd(self, res, g):
        return g, None
"""
RUNTIME_BASE = """from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)


class Op(_BASES[0]):
    def vjp_bwd(self, res, g):
        return (3 * g,)
"""
FORMS = {"setattr": SETATTR, "metaclass": METACLASS, "decorator": DECORATOR, "runtime_base": RUNTIME_BASE}
NO_FIX = SETATTR.replace('setattr(Op, "vjp_bwd", _bwd)', 'setattr(Op, "_".join(("vjp", "bwd")), _bwd)')


def cli(root: Path, *args: str):
    return FORKER.module("hijax_migrate", ["--no-cache", "--target-jax", "0.12", *args], root)


def tree_of(root: Path, text: str) -> Path:
    (root / "ops.py").write_text(text)
    return root / "ops.py"


@pytest.mark.parametrize("form", sorted(FORMS))
def test_no_unsafe_fix_is_written_without_the_flag(tmp_path, form):
    """The safe part of a migration is written as before (a base renamed where the refusal halts
    nothing); the refused rule never is, and every byte stays where HJX016 halts the file."""
    path = tree_of(tmp_path, FORMS[form])
    for flags in (["--check"], ["--diff"], ["--check", "--unsafe-fixes"], [], ["--in-place"], ["--in-place"]):
        run = cli(tmp_path, *flags, "ops.py")
        assert run.returncode == 1, (flags, run.stderr)
        assert "vjp_bwd_retval" not in path.read_text(), flags
        if form == "setattr" or "--in-place" not in flags:
            assert path.read_text() == FORMS[form], flags
    diff = cli(tmp_path, "--diff", "ops.py")
    assert "vjp_bwd_retval" not in diff.stdout
    assert re.search(r"\n[12] hidden fix(es)? can be enabled with the `--unsafe-fixes` option\n", diff.stderr)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_flag_writes_the_fix_and_the_check_passes_after(tmp_path, form):
    path = tree_of(tmp_path, FORMS[form])
    shown = cli(tmp_path, "--diff", "--unsafe-fixes", "ops.py")
    assert shown.returncode == 1 and "vjp_bwd_retval" in shown.stdout and path.read_text() == FORMS[form]
    run = cli(tmp_path, "--in-place", "--unsafe-fixes", "ops.py")
    assert run.returncode == 0, run.stderr
    assert "note: ops.py:" in run.stderr and "unsafe fix applied (not proven: check the gradient)" in run.stderr
    text = path.read_text()
    assert "vjp_bwd_retval" in text and "HiPrim" in text
    assert '"vjp_bwd"' not in text and "def vjp_bwd(self, res, g):\n        return (3" not in text
    if form == "decorator":  # the other protocol's class in the same file keeps its name
        assert text.endswith("class QuantOp:\n    def vjp_bwd(self, res, g):\n        return g, None\n")
    assert cli(tmp_path, "--check", "ops.py").returncode == 0


def test_json_gives_each_fix_its_applicability_and_reason(tmp_path):
    tree_of(tmp_path, SETATTR)
    report = json.loads(cli(tmp_path, "--output-format", "json", "ops.py").stdout)
    (finding,) = report["warnings"]
    assert finding["severity"] == "error" and finding["rule"] == "HJX016"
    fix = finding["fix"]
    assert fix["applicability"] == "unsafe" and fix["applied"] is False and fix["lines"] == [12]
    assert "cannot prove" in fix["reason"] and '+setattr(Op, "vjp_bwd_retval", _bwd)' in fix["diff"]
    assert report["summary"]["unsafe_fixes"] == {"hidden": 1, "applied": 0}
    written = json.loads(cli(tmp_path, "--output-format", "json", "--in-place", "--unsafe-fixes", "ops.py").stdout)
    assert [(w["severity"], w["fix"]["applied"]) for w in written["warnings"]] == [("note", True)]
    assert written["summary"]["unsafe_fixes"] == {"hidden": 0, "applied": 1}


def test_a_refusal_with_no_candidate_says_so_and_stays(tmp_path):
    path = tree_of(tmp_path, NO_FIX)
    plain = json.loads(cli(tmp_path, "--output-format", "json", "ops.py").stdout)
    assert "fix" not in plain["warnings"][0] and "unsafe_fixes" not in plain["summary"]
    asked = cli(tmp_path, "--output-format", "json", "--in-place", "--unsafe-fixes", "ops.py")
    (finding,) = json.loads(asked.stdout)["warnings"]
    assert asked.returncode == 1 and finding["severity"] == "error" and finding["fix"] is None
    assert path.read_text() == NO_FIX


# A rule that takes accumulators, refused because a getter reaches it by name: the rename
# keeps an accumulator rule's ``def`` as it is (jax's own form), so it answers nothing here;
# renaming the getter's string alone pointed it at a rule the class does not define.
HALF_PORTED_BY_NAME = """from jax.experimental.hijax import HiPrim


class Scale(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g * 2.0)
        logs = {"scale": 2.0}
        return logs


RULE = getattr(Scale, "vjp_bwd")
"""


def test_a_refusal_at_a_rule_the_rename_keeps_has_no_candidate(tmp_path):
    path = tree_of(tmp_path, HALF_PORTED_BY_NAME)
    asked = cli(tmp_path, "--output-format", "json", "--in-place", "--unsafe-fixes", "ops.py")
    (finding,) = json.loads(asked.stdout)["warnings"]
    assert asked.returncode == 1 and finding["severity"] == "error" and "reached by name" in finding["message"]
    assert finding["fix"] is None and path.read_text() == HALF_PORTED_BY_NAME


SUB = """from .prims import Op


class Sub(Op):
    def vjp_bwd(self, res, g):
        return tuple(2 * ct for ct in getattr(Op, NAME)(self, res, g))


NAME = {name}
"""


def test_a_subclass_in_another_file_follows_the_rename_or_is_an_error(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "prims.py").write_text(SETATTR)
    (tmp_path / "pkg" / "sub.py").write_text(SUB.format(name='"vjp_bwd"'))
    assert cli(tmp_path, "--check", "pkg").returncode == 1
    assert "vjp_bwd_retval" not in cli(tmp_path, "--diff", "pkg").stdout.partition("sub.py")[0]
    run = cli(tmp_path, "--in-place", "--unsafe-fixes", "pkg")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "pkg" / "sub.py").read_text() == SUB.format(name='"vjp_bwd_retval"').replace(
        "def vjp_bwd(", "def vjp_bwd_retval("
    )
    (tmp_path / "pkg" / "prims.py").write_text(SETATTR)
    (tmp_path / "pkg" / "sub.py").write_text(SUB.format(name='"vjp_" + "BWD".lower()'))
    spelled = cli(tmp_path, "--in-place", "--unsafe-fixes", "pkg")
    assert spelled.returncode == 1 and "but it spells the name otherwise" in spelled.stderr
    assert 'NAME = "vjp_" + "BWD".lower()' in (tmp_path / "pkg" / "sub.py").read_text()  # the safe part alone


def test_no_candidate_at_a_target_without_vjp_bwd_retval():
    refused = Finding("m.py", 12, "no rule follows it", "HJX016", severity=ERROR)
    result = unsafe.with_fixes(
        lambda text: Result(text, FileReport("m.py", findings=[refused])), SETATTR, "m.py", (0, 8, 0), True
    )
    assert result.code == SETATTR and result.report.findings[0].fix is None


def test_a_refusal_no_rename_answers_has_no_candidate_and_the_text_is_not_read(monkeypatch):
    """HJX008 (a removed base with no mechanical rewrite): no fix, decided from the findings alone."""
    refused = Finding("m.py", 5, "subclasses `HiPrimitive`", "HJX008", severity=ERROR)
    monkeypatch.setattr(unsafe, "unfollowed", lambda code: pytest.fail("the text was read"))
    result = unsafe.with_fixes(
        lambda text, *checked: Result(text, FileReport("m.py", findings=[refused])), SETATTR, "m.py", (0, 12, 0), False
    )
    assert result.code == SETATTR and result.report.findings[0].fix is None


def test_add_noqa_with_unsafe_fixes_is_a_usage_error(tmp_path):
    tree_of(tmp_path, SETATTR)
    run = cli(tmp_path, "--unsafe-fixes", "--add-noqa", "ops.py")
    assert run.returncode == 2 and "not built yet" in run.stderr


def review(root: Path, answers: str, *paths: str):
    flags = ["--no-cache", "--target-jax", "0.12", "--interactive", "--unsafe-fixes"]
    return FORKER.module("hijax_migrate", [*flags, *paths], root, answers)


def test_the_review_offers_the_unsafe_fix_marked_and_writes_it_when_accepted(tmp_path):
    path = tree_of(tmp_path, SETATTR)
    taken = review(tmp_path, "y\n", "ops.py")
    assert taken.returncode == 0, taken.stderr
    assert "ops.py: UNSAFE FIX, not proven: `vjp_bwd` renamed `vjp_bwd_retval` at line 12" in taken.stdout
    assert "why it is unsafe: the tool cannot prove" in taken.stdout
    assert path.read_text() == SETATTR.replace('"vjp_bwd"', '"vjp_bwd_retval"').replace("VJPHiPrimitive", "HiPrim")
    assert "unsafe fix applied (not proven: check the gradient)" in taken.stderr


@pytest.mark.parametrize("answer", ["n", "d", "q"])
def test_the_review_writes_nothing_unsafe_when_declined(tmp_path, answer):
    path = tree_of(tmp_path, SETATTR)
    declined = review(tmp_path, f"{answer}\n", "ops.py")
    assert declined.returncode == 1 and path.read_text() == SETATTR
    assert "UNSAFE FIX" in declined.stdout and "hidden fix" not in declined.stderr


def test_the_review_offers_a_subclass_s_rename_that_follows_the_fix(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "prims.py").write_text(SETATTR)
    (tmp_path / "pkg" / "sub.py").write_text(SUB.format(name='"vjp_bwd"'))
    taken = review(tmp_path, "y\ny\n", "pkg")
    assert taken.returncode == 0, taken.stderr
    # prims.py's fix written first, sub.py still reads it as found: its rename follows, as in an in-place run
    assert taken.stdout.count("UNSAFE FIX") == 2
    assert (tmp_path / "pkg" / "sub.py").read_text() == SUB.format(name='"vjp_bwd_retval"').replace(
        "def vjp_bwd(", "def vjp_bwd_retval("
    )


# Refused programs of the generator's seed 0 with an unsafe fix, one of each form: setattr after the
# class, a metaclass, a class decorator, a base picked at run, a subclass in another module reaching
# the rule by a plain literal (it follows the rename), the name imported as a class-body binding.
PROGRAMS = ["n0017", "n0018", "n0045", "n0031", "n0022", "n0014"]


def fixed_under(python: str, target: str, tmp_path: Path) -> dict[str, tuple]:
    drawn = namespaces.draw(100, 0)
    trees = {pkg: drawn[pkg] for pkg in PROGRAMS}
    verdicts = {}
    for pkg, tree in trees.items():
        assert refusals.run_one(tmp_path / "safe" / pkg, tree, target, "auto")[0] == "refused", pkg
        verdicts[pkg] = namespaces.unsafe_run(tmp_path / pkg, tree, target, "auto")
    runnable = {pkg: tmp_path / pkg / trees[pkg].root for pkg, verdict in verdicts.items() if verdict is None}
    assert sorted(runnable) == sorted(PROGRAMS), verdicts
    return refusals.probe(python, runnable)


@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed in this interpreter")
def test_applied_unsafe_fixes_give_the_stated_gradient_under_jax_010(tmp_path):
    results = fixed_under(sys.executable, "0.10", tmp_path)
    assert {pkg: r["got"] for pkg, r in results.items() if not r["ok"]} == {}


@pytest.mark.skipif(JAX_012 is None, reason="set HIJAX_PY312 to a Python 3.12 with jax 0.12 installed")
def test_applied_unsafe_fixes_give_the_stated_gradient_under_jax_012(tmp_path):
    results = fixed_under(PY312, "0.12", tmp_path)
    assert {pkg: r["got"] for pkg, r in results.items() if not r["ok"]} == {}
