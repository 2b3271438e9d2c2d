"""Which rule a use of ``.vjp_bwd`` can reach decides what it holds back:
an unrelated class's call, or a call that cannot bind the rule's arguments,
holds back nothing; a call of the family does, and says so on stderr."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.reach import _dotted, _lines_naming, _parsed
from hijax_migrate.analysis.sites import NAME, SELF, SUPER, UNKNOWN, sites
from hijax_migrate.cli import main
from hijax_migrate.sources.files import as_read
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

HALF_PORT = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        return None, g * x
"""

VALUE_RULE = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
"""

UNRELATED = """class Logger:
    def vjp_bwd(self, _res, g):
        return (g,)


class Verbose(Logger):
    def vjp_bwd(self, _res, g):
        return super().vjp_bwd(_res, g)


class QuantOp:
    def vjp_bwd(self, res, g):
        return g, None

    def grad(self, res, g):
        return self.vjp_bwd(res, g)


def replay(op, res, g):
    return op.vjp_bwd(res, g)
"""

SUBCLASS = """from ops import Mul


class Twice(Mul):
    def vjp_bwd(self, res, g):
        gx, gy = super(Twice, self).vjp_bwd(res, g)
        return 2 * gx, 2 * gy
"""


def migrate(tmp_path, files: dict, strategy: str) -> int:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return main(
        ["--in-place", "--no-cache", "--jobs", "1", "--strategy", strategy, "--target-jax", "0.10", str(tmp_path)]
    )


@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_unrelated_uses_in_another_file_hold_back_no_half_port(tmp_path, capsys, strategy):
    """The issue's first case: ``super().vjp_bwd(_res, g)`` in a class unrelated to
    the half-port, a quantizer calling its own rule, a two-argument call that cannot
    bind four parameters: the half-port is migrated, and nothing is said of them."""
    assert migrate(tmp_path, {"ops.py": HALF_PORT, "other.py": UNRELATED}, strategy) == 0
    assert "y_acc.accum(g * x)\n        return None" in (tmp_path / "ops.py").read_text()
    assert (tmp_path / "other.py").read_text() == UNRELATED
    assert "other.py" not in capsys.readouterr().err


def test_a_quantizers_own_call_keeps_the_accumulator_strategy(tmp_path, capsys):
    """The quantizer's ``self.vjp_bwd(res, g)`` reaches its own rule, and the unrelated
    super call its base's: ``--strategy accum`` gives the primitive accumulators. The
    two-argument call on an unknown object could bind the value rule: it alone would
    turn it into a rename, so here it is left out."""
    unrelated = UNRELATED.split("\n\ndef replay")[0] + "\n"
    assert migrate(tmp_path, {"ops.py": VALUE_RULE, "other.py": unrelated}, "accum") == 0
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in (tmp_path / "ops.py").read_text()
    assert "note:" not in capsys.readouterr().err


def test_a_call_of_the_family_renames_it_and_says_so_on_stderr(tmp_path, capsys):
    """``super(Twice, self).vjp_bwd(res, g)`` calls Mul's value rule: under accum both
    classes are renamed, the call with them, and stderr names the call's file and line."""
    assert migrate(tmp_path, {"ops.py": VALUE_RULE, "sub.py": SUBCLASS}, "accum") == 0
    assert "def vjp_bwd_retval(self, res, g):" in (tmp_path / "ops.py").read_text()
    assert "super(Twice, self).vjp_bwd_retval(res, g)" in (tmp_path / "sub.py").read_text()
    err = capsys.readouterr().err
    assert "not given accumulators (--strategy accum)" in err and "sub.py:6" in err


SITES = """
class Op(Base):
    def grad(self, res, g):
        return self.vjp_bwd(res, g)

    def up(self, res, g, *accs):
        return super().vjp_bwd(res, g, *accs)

    def named(self):
        return super(Op, self).vjp_bwd, Op.vjp_bwd

    @staticmethod
    def static(self):
        return self.vjp_bwd


def shadowed(Op, prim):
    return Op.vjp_bwd(1, 2), prim.vjp_bwd(1, g=2), [p.vjp_bwd for p in prim]
"""


def test_sites_say_what_stands_before_the_dot():
    found = [(s.line, s.how, s.cls, s.name, s.args) for s in sites(ast.parse(SITES), "vjp_bwd")]
    assert found == [
        (4, SELF, "Op", None, 2),
        (7, SUPER, "Op", None, None),  # starred: any count
        (10, SUPER, "Op", "Op", None),
        (10, NAME, "Op", "Op", None),
        (14, UNKNOWN, "Op", None, None),  # a static method's first parameter is no instance
        (18, UNKNOWN, None, None, 2),  # a parameter named like the class is not the class
        (18, UNKNOWN, None, None, None),  # keyword arguments: any parameter may take them
        (18, UNKNOWN, None, None, None),
    ]


BOUND_BASE = """from jax.experimental.hijax import VJPHiPrimitive


def _shared_bwd(self, res, g):
    x, y = res
    return g * y, g * x


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd = _shared_bwd
"""


@pytest.mark.parametrize("strategy", ["auto", "accum"])
def test_a_subclass_of_a_bound_value_rule_is_renamed_with_its_call(tmp_path, strategy):
    """The base binds a value rule (``vjp_bwd = f``), which its migration renames: the
    subclass's own value rule is renamed too (accumulators there would override both),
    and its ``super().vjp_bwd(res, g)`` with it."""
    assert migrate(tmp_path, {"ops.py": BOUND_BASE, "sub.py": SUBCLASS}, strategy) == 0
    assert "    vjp_bwd_retval = _shared_bwd\n" in (tmp_path / "ops.py").read_text()
    sub = (tmp_path / "sub.py").read_text()
    assert "def vjp_bwd_retval(self, res, g):" in sub and "super(Twice, self).vjp_bwd_retval(res, g)" in sub


def test_a_file_of_newer_syntax_than_this_pythons_is_read_by_libcst(tmp_path, capsys):
    """Python 3.12's nested f-string quotes: ``ast`` on 3.11 cannot read the file, libcst
    can; its uses are then found by libcst, each on an object of unknown class. It was an
    internal error (exit 3), the file left unmigrated."""
    source = HALF_PORT.replace(
        "        return None, g * x\n", '        print(f"{"nested quotes"}")\n        return None, g * x\n'
    )
    assert migrate(tmp_path, {"ops.py": source + "\n\ndef debug(op):\n    return op.vjp_bwd\n"}, "auto") == 0
    assert "y_acc.accum(g * x)" in (tmp_path / "ops.py").read_text()
    assert "line 16 is taken on an object whose class cannot be told" in capsys.readouterr().err


_PIECES = [
    "x",
    "y",
    ".",
    " ",
    "\n",
    "\\\n",
    "# c",
    "#####",
    "vjp_bwd",
    "vjp_bwd_retval",
    "(",
    ")",
    "'vjp_bwd'",
    ",",
    "\t",
    "=",
    "def vjp_bwd(self): pass\n",
    "@x.vjp_bwd\ndef f():\n    pass\n",
    "class C:\n    def f(self):\n        return 1\n",
    "\uff56jp_bwd",
    "# x\u00b2\n",
    "'\u00e9'",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(_PIECES), max_size=14), st.booleans())
@example(["x", ".", "\uff56jp_bwd"], False)  # Python reads the fullwidth v as v
@example(["x", ".", " ", "\\\n", "vjp_bwd", "# x\u00b2\n"], False)
def test_the_searches_that_spare_a_walk_miss_no_use(pieces, bracketed):
    """A file the byte search finds no ``.vjp_bwd`` in holds none that ``ast``
    sees (in brackets, a dot and the name may stand lines and comments apart),
    and the walk of only the statements spanning a line naming it finds every site."""
    text = "(" + "".join(pieces) + ")\n" if bracketed else "".join(pieces) + "\n"
    try:
        tree = ast.parse(text)
    except SyntaxError:
        assume(False)
    seen = any(isinstance(node, ast.Attribute) and node.attr == "vjp_bwd" for node in ast.walk(tree))
    read = as_read(text.encode())  # NFKC: a fullwidth v spells the same name
    assert not (seen and _dotted("vjp_bwd").search(read) is None)
    assert sites(tree, "vjp_bwd", _lines_naming(read, "vjp_bwd")) == sites(tree, "vjp_bwd")


def test_a_walk_of_the_lines_naming_the_rule_finds_every_site():
    code = SITES + "\n\nclass Unrelated:\n    def f(self):\n        return self.other\n"
    assert sites(ast.parse(code), "vjp_bwd", _lines_naming(code.encode(), "vjp_bwd")) == sites(
        ast.parse(code), "vjp_bwd"
    )


def test_a_line_of_hashes_after_a_dot_is_searched_at_once():
    """A comment is read to its line's end, one way: the search once tried each
    ``#`` of a ``####`` line as a comment's start, 2**n ways (jax's own tree has
    such lines; its ad_checkpoint.py took 7 minutes, not 9 seconds). Run apart,
    so that a search gone exponential fails the test instead of hanging it."""
    text = b"(a.  " + b"#" * 120 + b"\n b)\n" * 3
    script = f"from hijax_migrate.analysis.reach import _dotted; print(_dotted('vjp_bwd').search({text!r}))"
    done = FORKER.code(script, [], Path.cwd(), timeout=120)  # a fresh process, killed at the timeout
    assert done.stdout == "None\n", done.stderr


def test_another_files_text_is_parsed_once_for_both_searches_of_a_file(monkeypatch):
    """The search for uses and the one for references by name read the same module."""
    parsed = []
    parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *rest: parsed.append(text) or parse(text, *rest))
    view = Project()
    first = _parsed(view, HALF_PORT)
    assert _parsed(view, HALF_PORT[:-1] + "\n") is first and parsed == [HALF_PORT]
    assert _parsed(view, VALUE_RULE) is not first and _parsed(Project(), HALF_PORT) is not first


@pytest.mark.parametrize("action", ["always", "error"])
def test_a_text_that_warns_is_parsed_as_it_was_each_time(action):
    """Each parse shows what it warns of (an invalid escape), or raises it as an error."""
    text = 'x = "\\d"\n'
    view = Project()
    outcomes = [_outcome(action, lambda: ast.parse(text))]
    outcomes += [_outcome(action, lambda: _parsed(view, text)) for _ in range(2)]
    assert outcomes[0] and outcomes == [outcomes[0]] * 3


def _outcome(action: str, parse) -> list[str] | str:
    """What ``parse`` warns of, or the error it raises, under the warnings' ``action``."""
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter(action)
        try:
            parse()
        except SyntaxError as error:
            return error.msg
    return [str(w.message) for w in heard]


def test_a_broken_text_raises_as_its_parse_does():
    with pytest.raises(SyntaxError):
        _parsed(Project(), "def (:\n")


JAX_BASE = """class VJPHiPrimitive:
    def _backward(self, res, g):
        return getattr(self, "vjp_bwd")(res, g)
"""


def test_jax_s_own_hijax_module_reaching_the_rule_by_name_is_the_api_s_dispatch(tmp_path):
    """In a tree that is jax, its hijax module calls the rules as the API says (the rules model
    that): its references by name hold nothing back, and the module is not read for them."""
    (tmp_path / "jax" / "_src").mkdir(parents=True)
    for name, text in {"__init__.py": "", "_src/__init__.py": "", "_src/hijax.py": JAX_BASE}.items():
        (tmp_path / "jax" / name).write_text(text)
    ops = tmp_path / "jax" / "_src" / "ops.py"
    ops.write_text(VALUE_RULE.replace("from jax.experimental.hijax", "from jax._src.hijax"))
    flags = ["--in-place", "--no-cache", "--jobs", "1", "--target-jax", "0.10", str(ops)]
    assert main(flags) == 0
    assert "def vjp_bwd_retval(self, res, g):" in ops.read_text()
