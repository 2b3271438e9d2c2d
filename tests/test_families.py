"""Whole class families and names resolved by scope, under a real jax."""

from __future__ import annotations

import pytest
from family_cases import FAMILY_CASES, FWD_CASES, JAX_012_ONLY, JAX_012_TREES, SCOPE_CASES, TREES
from hijax_migrate.core.versions import parse_version
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from jax_batch import HAS_JAX_HERE, JAX_012, ORDERS, STRATEGIES
from test_semantics import check_case

SINGLE_FILE = FWD_CASES + SCOPE_CASES + FAMILY_CASES
needs_jax = pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python")
needs_012 = pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("case", SINGLE_FILE, ids=lambda c: c.name)
def test_single_file_under_jax_010(case, jax_010_runs):
    check_case(jax_010_runs["family", case.name], case)


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("case", SINGLE_FILE + JAX_012_ONLY, ids=lambda c: c.name)
def test_single_file_under_jax_012(case, jax_012_runs):
    check_case(jax_012_runs["family", case.name], case)


def check_tree(check, case) -> None:
    """A tree's batched runs: broken before the migration (run in place, file by file), right after it."""
    outcomes, before, after = check.results()
    assert "error" in before, f"the unmigrated code already works: {before}"
    assert any(o.changes for o in outcomes), outcomes
    assert "error" not in after, f"{after['error']}\n{check.files}"
    for key in ("grad", "jit", "vmap"):
        if key in after:
            assert after[key] == case.expected, key


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("case", TREES, ids=lambda c: c.name)
def test_tree_under_jax_010(case, order, jax_010_runs):
    check_tree(jax_010_runs["tree", case.name, order], case)


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("case", TREES + JAX_012_TREES, ids=lambda c: c.name)
def test_tree_under_jax_012(case, order, jax_012_runs):
    check_tree(jax_012_runs["tree", case.name, order], case)


def test_calls_in_a_subclass_follow_a_rule_renamed_in_another_file(tmp_path):
    from test_project import migrate_tree, write

    write(
        tmp_path,
        {
            "base.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n"
            "class Base(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n",
            "sub.py": "from base import Base\n\nclass Sub(Base):\n    def debug(self, res, g):\n"
            "        return self.vjp_bwd(res, g), super().vjp_bwd(res, g), self.other.vjp_bwd(res)\n",
        },
    )
    diffs = migrate_tree(tmp_path)
    assert (
        "+        return self.vjp_bwd_retval(res, g), super().vjp_bwd_retval(res, g), self.other.vjp_bwd(res)"
    ) in diffs["sub.py"]


def test_a_rename_is_not_made_when_a_subclass_in_another_file_accumulates(tmp_path):
    from test_project import migrate_tree, write

    write(
        tmp_path,
        {
            "base.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n"
            "class Base(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n",
            "sub.py": "from base import Base\n\nclass Sub(Base):\n    def vjp_bwd(self, res, g, x_acc):\n"
            "        x_acc.accum(g)\n",
        },
    )
    diffs = migrate_tree(tmp_path)
    assert list(diffs) == ["base.py"]
    assert "vjp_bwd_retval" not in diffs["base.py"] and "acc.accum(" in diffs["base.py"]


FIXTURE_TEST = """
import unittest
import jax
from jax.experimental.hijax import VJPHiPrimitive


class T(unittest.TestCase):
    def test_structured_residuals_require_vjp_bwd_override(self):
        class Bad(VJPHiPrimitive):
            def __init__(self, in_aval):
                self.in_avals = (in_aval,)
                self.out_aval = in_aval
                self.params = {}
                super().__init__()

            def expand(self, x):
                return x ** 2

            def vjp_fwd(self, nzs_in, x):
                return self(x), (), True, {'x': x}

            def vjp_bwd_retval(self, res, t):
                return (t,)

        with self.assertRaisesRegex(TypeError, "structured residuals"):
            jax.grad(lambda x: Bad(jax.typeof(x))(x))(3.0)


unittest.main()
"""


def fixture_test_script(batch) -> dict:
    """An extra of jax_012_runs: FIXTURE_TEST migrated, run as a script by the batch."""
    from hijax_migrate.engine.engine import migrate_source

    path = batch.folder_for("fixture-test") / "fixture_test.py"
    path.write_text(migrate_source(FIXTURE_TEST, "fixture_test.py", Options(parse_version("0.12"))).code)
    return {("script", "fixture test"): batch.script(path)}


@pytest.mark.jax
@needs_012
def test_a_fixture_used_only_in_a_raises_block_still_raises_under_jax_012(jax_012_runs):
    """jax's own test (main, 0.11.1dev): the class is wrong on purpose, defined
    before the block; "fixing" it made the test fail."""
    from hijax_migrate.engine.engine import migrate_source

    migrated = migrate_source(FIXTURE_TEST, "fixture_test.py", Options(parse_version("0.12")))
    assert "vjp_bwd_retval(self, res, t)" in migrated.code and "HiPrim" in migrated.code
    script = jax_012_runs["script", "fixture test"]
    assert script.text == migrated.code  # the batch ran this migration
    run_ = script.ran()
    assert run_.returncode == 0, run_.stderr


OPS = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n"
    "class Sq(VJPHiPrimitive):\n    def vjp_fwd(self, nzs_in, x):\n        return self(x), x\n\n"
    "    def vjp_bwd(self, res, g):\n        return (2 * res * g,)\n"
)
CALLS = "from ops import Sq\n\nct, = Sq.vjp_bwd(None, 3.0, 1.0)\nprint(ct)\n"
MODULE_LEVEL_TREE = {"ops.py": OPS, "calls.py": CALLS, "guide.md": f"# Guide\n\n```python\n{CALLS}```\n"}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_call_at_module_level_in_another_file_follows_the_rename(tmp_path, strategy):
    """``Sq.vjp_bwd(...)`` in a module with no class, and in a Markdown fence:
    under accum the value call makes the rule's own file rename it, and the
    calls follow (the migrated call runs under jax: the test after next)."""
    from test_project import migrate_tree, write

    write(tmp_path, MODULE_LEVEL_TREE)
    diffs = migrate_tree(tmp_path, strategy=strategy)
    assert sorted(diffs) == ["calls.py", "guide.md", "ops.py"]
    for name in ("calls.py", "guide.md"):
        assert "+ct, = Sq.vjp_bwd_retval(None, 3.0, 1.0)" in diffs[name]
    assert "+    def vjp_bwd_retval(self, res, g):" in diffs["ops.py"]  # the rule goes with them


def migrated_module_level_tree(root, strategy: str) -> None:
    """The tree above, written in ``root`` and migrated there in place."""
    from test_project import write

    write(root, MODULE_LEVEL_TREE)
    jobs = [Job(p, p.name, root) for p in walk(root)]
    run(jobs, Options(target=(0, 10, 0), strategy=strategy), in_place=True, workers=1)


def module_level_scripts(batch) -> dict:
    """An extra of jax_010_runs: the module-level call's tree migrated in place, ``calls.py`` run by the batch."""
    scripts = {}
    for strategy in STRATEGIES:
        root = batch.folder_for(f"module-level-{strategy}")
        migrated_module_level_tree(root, strategy)
        scripts["script", "module-level call", strategy] = batch.script(root / "calls.py")
    return scripts


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_the_migrated_module_level_call_runs_under_jax_010(tmp_path, strategy, jax_010_runs):
    """The calls migrated in place above still run: ``python calls.py`` under jax 0.10."""
    migrated_module_level_tree(tmp_path, strategy)
    script = jax_010_runs["script", "module-level call", strategy]
    assert script.text == (tmp_path / "calls.py").read_text()  # the batch ran this migration
    ran = script.ran()
    assert ran.stdout.strip() == "6.0", ran.stderr


def test_a_call_stays_when_the_rules_own_file_converts_it(tmp_path):
    """Structured residuals need the accumulator form: the rule's file does not
    rename it (a value use elsewhere makes it refuse), so a call elsewhere is
    not renamed either."""
    from test_project import migrate_tree, write

    sres = OPS.replace("return self(x), x", "return self(x), x, None, x")
    write(tmp_path, {"ops.py": sres, "calls.py": CALLS})
    diffs = migrate_tree(tmp_path)
    assert "calls.py" not in diffs
    assert "vjp_bwd_retval" not in diffs.get("ops.py", "")


@pytest.mark.parametrize("triaged", [True, False])
def test_jax_s_own_hiprim_method_is_no_flag(tmp_path, triaged):
    """Run over jax's own sources (0.11.2 and later), ``HiPrim`` is in the tree
    and defines ``vjp_bwd_retval_logs`` as a method: its subclasses' plain
    ``vjp_bwd_retval`` are the new API, not rules under a flag of unknown value.
    Before, each was an HJX004 error ("sets `vjp_bwd_retval_logs` to something
    other than True/False"). A base setting the flag still counts."""
    from test_project import write

    hijax = (
        "class HiPrim:\n    def vjp_bwd(self, res, g, /, *accs):\n"
        "        cts, logs = self.vjp_bwd_retval_logs(res, g)\n"
        "        return logs\n\n    def vjp_bwd_retval_logs(self, res, g, /):\n"
        "        return self.vjp_bwd_retval(res, g), None\n"
    )
    op = (
        "from jax._src.hijax import HiPrim\n\nclass Op(HiPrim):\n    def vjp_bwd_retval(self, res, g):\n"
        "        return (g,)\n"
    )
    flagged = op.replace(
        "class Op(HiPrim):", "class Flagged(HiPrim):\n    vjp_bwd_retval_logs = f()\n\nclass Op(Flagged):"
    )
    write(
        tmp_path,
        {
            "jax/__init__.py": "",
            "jax/_src/__init__.py": "",
            "jax/_src/hijax.py": hijax,
            "jax/_src/op.py": op,
            "jax/_src/flagged.py": flagged,
        },
    )
    jobs = [Job(p, p.relative_to(tmp_path).as_posix(), tmp_path) for p in walk(tmp_path)]
    outcomes = {
        o.file: o
        for o in run(
            jobs, Options(target=(0, 12, 0), classes=None if triaged else ("Op", "Flagged")), in_place=False, workers=1
        )
    }
    assert not outcomes["jax/_src/op.py"].diff and not outcomes["jax/_src/op.py"].findings
    assert {(f.rule, f.is_error) for f in outcomes["jax/_src/flagged.py"].findings} == {("HJX004", True)}
