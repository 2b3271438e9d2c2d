"""An in-place run decides every file on the tree as it found it: a file
another worker already rewrote is read as it was (``originals``)."""

from __future__ import annotations

from hijax_migrate.analysis.project import Project
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options
from hijax_migrate.sources.originals import Originals
from hijax_migrate.tree.calls import use_elsewhere
from hijax_migrate.tree.holders import Holders
from hijax_migrate.tree.reads import TreeReads
from test_project import write

BASE = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Base(VJPHiPrimitive):\n    vjp_bwd_retval_logs = True\n"
)
SUB = (
    "from base import Base\n\nclass Sub(Base):\n    def vjp_bwd_retval(self, res, g):\n        return (g,), {'g': g}\n"
)


def test_a_base_rewritten_by_another_worker_is_read_as_it_was(tmp_path):
    write(tmp_path, {"base.py": BASE, "sub.py": SUB})
    migrated_base = migrate_source(BASE, "base.py", Options(target=(0, 12, 0)), Project(), "base").code
    assert "vjp_bwd_retval_logs" not in migrated_base  # the flag is gone once the base is done
    originals = Originals.start()  # an in-place run's
    try:
        originals.keep(tmp_path / "base.py", BASE.encode())
        (tmp_path / "base.py").write_text(migrated_base)  # as a worker writes it
        project = Project(roots=(tmp_path,), reads=TreeReads(originals))
        sub = migrate_source(SUB, "sub.py", Options(target=(0, 12, 0)), project, "sub")
    finally:
        originals.finish()
    assert "def vjp_bwd_retval_logs(self, res, g):" in sub.code
    # Without the kept bytes, the rewritten base would decide it: the test holds.
    alone = migrate_source(SUB, "sub.py", Options(target=(0, 12, 0)), Project(roots=(tmp_path,)), "sub")
    assert "def vjp_bwd_retval_logs" not in alone.code


def test_a_value_use_already_renamed_still_counts(tmp_path):
    write(tmp_path, {"ops.py": "x = 1\n", "calls.py": "Sq.vjp_bwd_retval(None, 3.0, 1.0)\n"})
    originals = Originals.start()  # an in-place run's
    try:
        originals.keep(tmp_path / "calls.py", b"Sq.vjp_bwd(None, 3.0, 1.0)\n")
        found = use_elsewhere(
            (tmp_path,), "vjp_bwd", str(tmp_path / "ops.py"), search=Holders(reads=TreeReads(originals))
        )
    finally:
        originals.finish()
    assert found is not None and found[0].name == "calls.py"
