"""Post-conditions of a rewrite: a broken one leaves the file byte-identical
and is reported as a bug in the tool, with the file's line (exit code 3)."""

from __future__ import annotations

import libcst as cst
import pytest
from hijax_migrate.analysis import accum
from hijax_migrate.cli import main
from hijax_migrate.core.errors import MigrationError
from hijax_migrate.engine import checks
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules import writes
from hijax_migrate.rules.context import Options

OLD = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""


@pytest.mark.parametrize(
    "new, message, line",
    [
        ("def f(a, a):\n    return a\n", "does not compile (duplicate argument 'a'", 1),
        ("def f(a):\n    return b\n", "leaves `b` unbound", 1),
        ("def f(a, b):\n    pass\n\n\ndef g():\n    return c\n", "leaves `c` unbound", 5),
        ("def f(a, b):\n    return a\n# c\nx = c\n", "leaves `c` unbound", 4),  # module level: its first use
    ],
)
def test_output_that_breaks_what_the_input_bound_or_compiled_is_refused(new, message, line):
    with pytest.raises(MigrationError, match="internal error: the rewrite " + message.replace("(", r"\(")) as error:
        checks.check_output("def f(a, b):\n    return a\n", new, "ops.py")
    assert error.value.line == line


def test_names_unbound_already_and_star_imports_are_no_failure():
    checks.check_output("def f():\n    return b\n", "def f():\n    x = 1\n    return b\n", "ops.py")
    checks.check_output("from m import *\n", "from m import *\nq = r\n", "ops.py")
    checks.check_output("print 'py2'\n", "print 'py2'\nx\n", "ops.py")  # not for this Python: not compared


def test_the_input_is_compiled_only_where_the_output_s_verdict_needs_it(monkeypatch):
    """Its verdict is the same either way: an input this Python cannot compile gives False
    (nothing compared) wherever the output fails or leaves a name unbound."""
    compiled = []
    real = compile
    monkeypatch.setattr(
        checks, "compile", lambda code, *rest, **kw: compiled.append(code) or real(code, *rest, **kw), raising=False
    )
    assert checks.check_output("def f(a, b):\n    return a\n", "def f(a, b):\n    return b\n", "ops.py")
    assert len(compiled) == 1 and not isinstance(compiled[0], str)  # the output alone, from its tree
    assert not checks.check_output("print 'py2'\n", "print 'py2'\nx = 1\n", "ops.py")  # neither compiles
    assert not checks.check_output("print 'py2'\nx = 1\n", "x = 1\nprint(y)\n", "ops.py")  # y unbound, input unread


def test_a_rewrite_that_misses_a_write_is_a_tool_bug_and_the_file_stays(tmp_path, monkeypatch, capsys):
    def forgets_the_second(acc, value, *rest):
        return [] if cst.Module([]).code_for_node(acc) == "y_acc" else real(acc, value, *rest)

    real = writes.writes_for
    monkeypatch.setattr(writes, "writes_for", forgets_the_second)
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    assert main(["--in-place", "-q", "--strategy", "accum", "--target-jax", "0.10", "--jobs", "1", str(path)]) == 3
    assert path.read_text() == OLD
    err = capsys.readouterr().err
    assert "ops.py:10" in err and "does not write `y_acc`" in err and "please report this" in err


def test_a_rewrite_that_unbinds_a_name_is_a_tool_bug_and_the_file_stays(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(writes, "return_none", lambda ret: ret.with_changes(value=cst.Name("nothing")))
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    assert main(["--in-place", "-q", "--strategy", "accum", "--target-jax", "0.10", "--jobs", "1", str(path)]) == 3
    assert path.read_text() == OLD
    assert "leaves `nothing` unbound" in capsys.readouterr().err


def test_a_tree_write_that_splits_a_bare_tuple_is_a_tool_bug(monkeypatch):
    """Once, ``return g, 2 * g`` became ``jax.tree.map(f, arg_accums, g, 2 * g)``: it compiles."""

    def unparenthesized(acc, value):
        target = f"({', '.join(acc)})" if isinstance(acc, list) else accum.code(acc)
        return cst.Expr(cst.parse_expression(accum.TREE_WRITE.format(acc=target, value=accum.code(value))))

    monkeypatch.setattr(writes, "tree_write", unparenthesized)
    source = (
        "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Add(VJPHiPrimitive):\n"
        "    def vjp_fwd(self, nzs_in, *xs):\n        return sum(xs), None\n\n"
        "    def vjp_bwd(self, res, g):\n        return g, 2 * g\n"
    )
    with pytest.raises(MigrationError, match="tree write") as error:
        migrate_source(source, options=Options(target=(0, 10, 0), strategy="accum"))
    assert error.value.line == 8
