"""--strategy accum never leaves a caller broken: a rule a use in its file or
in another file of the tree may call is renamed instead, and says why; a
half-ported one is left alone where its family calls it, and migrated with a
note where an object of unknown class may."""

from __future__ import annotations

import json

from hijax_migrate.cli import main

BASE = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g{accs}):
        x, y = res
        return (g * y, g * x)
"""

CALLER = """from ops import Mul


def both(prim, res, g):
    return prim.vjp_bwd(res, g)
"""


def run(tmp_path) -> int:
    """The folder is the tree: its files, and no others, may call the rule."""
    return main(
        [
            "--in-place",
            "--strategy",
            "accum",
            "--target-jax",
            "0.10",
            "--jobs",
            "1",
            "--output-format",
            "json",
            str(tmp_path),
        ]
    )


def test_a_rule_used_in_another_file_is_renamed_with_the_reason(tmp_path, capsys):
    (tmp_path / "ops.py").write_text(BASE.format(accs=""))
    (tmp_path / "use.py").write_text(CALLER)
    assert run(tmp_path) == 0
    out = (tmp_path / "ops.py").read_text()
    assert "def vjp_bwd_retval(self, res, g):" in out and "accum" not in out
    assert "use.py:5" in capsys.readouterr().out  # the change says why


def test_a_half_ported_rule_is_not_reached_by_a_call_that_cannot_bind_it(tmp_path, capsys):
    """``prim.vjp_bwd(res, g)`` passes two arguments to a rule that needs four:
    whatever ``prim`` is, it never calls this rule, which is migrated, unremarked."""
    (tmp_path / "ops.py").write_text(BASE.format(accs=", x_acc, y_acc"))
    (tmp_path / "use.py").write_text(CALLER)
    assert run(tmp_path) == 0
    assert "y_acc.accum(g * x)\n        return None" in (tmp_path / "ops.py").read_text()
    assert "use.py" not in capsys.readouterr().out


def test_a_half_ported_rule_maybe_called_elsewhere_is_migrated_with_a_note(tmp_path, capsys):
    """A call that passes the accumulators, on an object of unknown class, keeps
    its arguments; what it gets back is now None, and the note says where."""
    (tmp_path / "ops.py").write_text(BASE.format(accs=", x_acc, y_acc"))
    (tmp_path / "use.py").write_text(CALLER.replace("(res, g)", "(res, g, *accs)").replace("g):", "g, accs):"))
    assert run(tmp_path) == 0
    assert "y_acc.accum(g * x)\n        return None" in (tmp_path / "ops.py").read_text()
    report = json.loads(capsys.readouterr().out)
    notes = [w for w in report["warnings"] if w["severity"] == "note"]
    assert [(n["line"], n["file"].endswith("ops.py")) for n in notes] == [(8, True)]
    assert "use.py:5" in notes[0]["message"] and "gets None back" in notes[0]["message"]


def test_a_half_ported_rule_called_by_its_family_elsewhere_is_left_alone(tmp_path, capsys):
    """``Mul.vjp_bwd(...)`` names the class: its result may be used, so no guess."""
    source = BASE.format(accs=", x_acc, y_acc")
    (tmp_path / "ops.py").write_text(source)
    (tmp_path / "use.py").write_text(CALLER.replace("prim.vjp_bwd(res, g)", "Mul.vjp_bwd(prim, res, g, 0, 0)"))
    assert run(tmp_path) == 1  # an error is left to fix by hand: --in-place exits 1, as ruff's --fix
    assert (tmp_path / "ops.py").read_text() == source
    out = capsys.readouterr().out
    assert '"line": 8' in out and "use.py:5" in out and "port both by hand" in out


def test_without_a_use_elsewhere_the_rule_gets_accumulators(tmp_path):
    (tmp_path / "ops.py").write_text(BASE.format(accs=""))
    # neither a definition nor words in a comment or a string are a use
    (tmp_path / "other.py").write_text('def vjp_bwd(res, g):\n    """not prim.vjp_bwd"""\n    return g  # .vjp_bwd\n')
    assert run(tmp_path) == 0
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in (tmp_path / "ops.py").read_text()
