"""HJX010 in every place a ``dce`` stands (issue 26), and HJX011's note on a
``batch_dim_rule`` that only raises, checked under real jax: the 0.12
programs run in jax_batch's 0.12 process (``dce_forms.checks_012``), the
0.10.2 ones of the ``batch_dim_rule`` test in one process of their own."""

from __future__ import annotations

import shutil
import sys

import pytest
from dce_forms import CASES, EXPECTED, NO_VMAP, NO_VMAP_BATCHED, SINGLE, TREE, VALUE
from hijax_migrate.core.versions import parse_version
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options
from jax_batch import HAS_JAX_HERE, JAX_012, Batch

AT_012 = Options(parse_version("0.12"))
needs_012 = pytest.mark.skipif(
    not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12"
)


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_dce_form_is_migrated_and_runs_under_jax_012(case, jax_012_runs):
    migrated, before, after = jax_012_runs["dce", case.name].results()
    assert "takes 2 positional arguments but 3 were given" in before.get("error", ""), before
    findings = migrated.report.findings if case.source else [f for o in migrated for f in o.findings]
    assert not findings, findings
    assert "error" not in after, after
    assert after["value"] == VALUE and after["grad"] == after["jit"] == EXPECTED


def test_the_migration_adds_live_ins_where_dce_is_written():
    """Without jax: what the tool writes for each form (the runs above show it works)."""
    for case in SINGLE:
        result = migrate_source(case.source, f"{case.name}.py", AT_012)
        assert "used_outs, live_ins)" in result.code and not result.report.findings, (case.name, result.code)
        assert "(self, used_outs)" not in result.code and ".dce(used_outs)" not in result.code, case.name


@pytest.mark.jax
@needs_012
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax 0.10.2 is not installed for this Python")
def test_a_batch_dim_rule_that_only_raises_fails_vmap_on_both_releases(jax_012_runs, tmp_path):
    """The note's claim: jax 0.10 (before) and 0.12 (after the migration) give the same
    gradients, and the same NotImplementedError under vmap; the rule is left as written,
    with a note and no error."""
    batch = Batch(sys.executable, tmp_path)
    positions = {
        name: batch.module(source) for name, source in (("no_vmap", NO_VMAP), ("no_vmap_batched", NO_VMAP_BATCHED))
    }
    batch.run()
    runs = {name: (batch.result(position), jax_012_runs["dce", name].results()) for name, position in positions.items()}
    for name, (_, (migrated, _, _)) in runs.items():
        assert [(f.rule, f.severity) for f in migrated.report.findings] == [("HJX011", "note")], name
        assert "raise NotImplementedError" in migrated.code
    (on_010, (_, _, on_012)) = runs["no_vmap"]
    gradients = [[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]]
    for key in ("grad", "jit", "vmap"):  # vmap(grad): the rules are batched, not the primitive
        assert on_010[key] == on_012[key] == gradients, (key, on_010, on_012)
    (on_010, (_, _, on_012)) = runs["no_vmap_batched"]
    assert on_010["error"].startswith("NotImplementedError") and on_012["error"].startswith("NotImplementedError")


def test_a_mixin_in_another_file_is_migrated_only_for_primitives(tmp_path):
    """The mixin's file names no primitive: the rule acts through its family."""
    from hijax_migrate.run.runner import run
    from hijax_migrate.run.state import Job
    from hijax_migrate.sources.files import walk

    for other, expected in (("", "used_outs, live_ins"), ("class Plain(KeepAll):\n    pass\n", "used_outs)")):
        root = tmp_path / str(len(other))
        root.mkdir()
        (root / "mixins.py").write_text(TREE.files["mixins.py"] + other)
        (root / "main.py").write_text(TREE.files["main.py"])
        outcomes = run([Job(p, p.name, root) for p in sorted(walk(root))], AT_012, in_place=True, workers=1)
        assert expected in (root / "mixins.py").read_text()
        errors = [f.message for o in outcomes for f in o.findings]
        assert bool(other) == any("Plain, which is no primitive" in m for m in errors), errors
        shutil.rmtree(root)
