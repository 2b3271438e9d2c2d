"""Names Python reads otherwise than they are written (NFKC): refused, never passed over."""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.analysis.project import Project
from hijax_migrate.core.model import Options
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.engine.triage import untouched

HALF_WIDE = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def ｖjp_bwd(self, res, g):
        return (g,)
"""


def test_a_rule_spelt_beyond_ascii_is_refused_with_its_line():
    """Python defines `vjp_bwd` here: left as it is, it would break on jax 0.10."""
    with pytest.raises(MigrationError) as raised:
        migrate_source(HALF_WIDE, "op.py", Options(target=(0, 10, 0)))
    assert raised.value.line == 8 and "`ｖjp_bwd` is read by Python as `vjp_bwd`" in str(raised.value)
    assert untouched(HALF_WIDE, "op.py", Options(target=(0, 10, 0)), Project()) is None  # never passed over


@pytest.mark.parametrize("code", ["# café\nx = 'naïve'\n", "def schön(x):\n    return x\n", "ﬁx = 1\n"])
def test_other_names_beyond_ascii_are_no_concern(code):
    assert migrate_source(code, "m.py", Options(target=(0, 10, 0))).code == code


def test_the_file_stays_byte_identical_and_the_run_says_why(tmp_path):
    source = tmp_path / "op.py"
    source.write_bytes(HALF_WIDE.encode())
    run = FORKER.module("hijax_migrate", ["--in-place", "--no-cache", "--target-jax", "0.10", str(source)], Path.cwd())
    assert source.read_bytes() == HALF_WIDE.encode()
    assert f"{source}:8" in run.stderr and "read by Python as `vjp_bwd`" in run.stderr, run.stderr
