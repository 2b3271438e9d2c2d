"""--strategy accum never leaves a caller broken: a rule used as a value in
its file or in another file of the tree is renamed instead, and says why; a
half-ported one is left alone with a warning."""

from __future__ import annotations

from hijax_migrate.cli import main

BASE = '''from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g{accs}):
        x, y = res
        return (g * y, g * x)
'''

CALLER = '''from ops import Mul


def both(prim, res, g):
    return prim.vjp_bwd(res, g)
'''


def run(tmp_path) -> int:
    """The folder is the tree: its files, and no others, may call the rule."""
    return main(["--in-place", "--strategy", "accum", "--target-jax", "0.10", "--jobs", "1",
                 "--output-format", "json", str(tmp_path)])


def test_a_rule_used_in_another_file_is_renamed_with_the_reason(tmp_path, capsys):
    (tmp_path / "ops.py").write_text(BASE.format(accs=""))
    (tmp_path / "use.py").write_text(CALLER)
    assert run(tmp_path) == 0
    out = (tmp_path / "ops.py").read_text()
    assert "def vjp_bwd_retval(self, res, g):" in out and "accum" not in out
    assert "use.py:5" in capsys.readouterr().out  # the change says why


def test_a_half_ported_rule_used_in_another_file_is_left_alone(tmp_path, capsys):
    source = BASE.format(accs=", x_acc, y_acc")
    (tmp_path / "ops.py").write_text(source)
    (tmp_path / "use.py").write_text(CALLER)
    assert run(tmp_path) == 0
    assert (tmp_path / "ops.py").read_text() == source
    out = capsys.readouterr().out
    assert '"line": 8' in out and "use.py:5" in out and "not guessing" in out


def test_without_a_use_elsewhere_the_rule_gets_accumulators(tmp_path):
    (tmp_path / "ops.py").write_text(BASE.format(accs=""))
    # neither a definition nor words in a comment or a string are a use
    (tmp_path / "other.py").write_text('def vjp_bwd(res, g):\n    """not prim.vjp_bwd"""\n    return g  # .vjp_bwd\n')
    assert run(tmp_path) == 0
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in (tmp_path / "ops.py").read_text()
