"""A class body means the same whatever its layout, and so must its migration.

Python's grammar lets a class body's simple statements stand each on a line of
its own, share a line with others (``a = 1; vjp_bwd = f``), or be the whole
body on the header's line (``class Op(Base): vjp_bwd = f``). The tool once
read only the first layout: a rule bound in the others was passed over with
"nothing left to fix" while the code failed under the target. Each program
here binds a rule in each of the forms of the data model (an assignment, an
annotated one, a tuple, chained, a list, starred, a walrus; the logs flag;
``dce``) in each layout (every pair: the space is small); the migration's ``ast`` (the filler statement taken
out) and its findings must be the layout-free one's.
"""

from __future__ import annotations

import ast
import re

import pytest
from hijax_migrate import migrate_source
from hijax_migrate.core.model import Options
from hijax_migrate.core.versions import parse_version

HEAD = """\
import typing

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


def _logged(self, res, g):
    return (g,), {"g": g}


def _dce(self, used_outs):
    return used_outs, [True]


class Base(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None


"""
# (binding statement, target): forms of the data model's A3 to A7, the logs flag, dce
BINDINGS = [
    ("vjp_bwd = _bwd", "0.10"),
    ("vjp_bwd: typing.Callable = _bwd", "0.10"),
    ("_spare, vjp_bwd = _bwd, _bwd", "0.10"),
    ("vjp_bwd = _alias = _bwd", "0.10"),
    ("[vjp_bwd] = [_bwd]", "0.10"),
    ("vjp_bwd, *_rest = (_bwd,)", "0.10"),
    ("(vjp_bwd := _bwd)", "0.10"),
    ("vjp_bwd = _bwd", "0.12"),
    ("vjp_bwd_retval_logs = True; vjp_bwd_retval = _logged", "0.12"),
    ("vjp_bwd_retval_logs = False; vjp_bwd_retval = _bwd", "0.12"),
    ("dce = _dce", "0.12"),
]
FILLER = "_layout = 0"
LAYOUTS = ["own lines", "after a statement", "before a statement", "one-line body"]


def program(binding: str, layout: str) -> str:
    statements = binding.split("; ")
    if layout == "after a statement":
        statements = [f"{FILLER}; {statements[0]}", *statements[1:]]
    elif layout == "before a statement":
        statements = [*statements[:-1], f"{statements[-1]}; {FILLER}"]
    if layout == "one-line body":
        return HEAD + f"class Op(Base): {'; '.join(statements)}\n"
    return HEAD + "class Op(Base):\n" + "".join(f"    {s}\n" for s in statements)


def outcome(code: str, target: str) -> tuple[str, list[tuple[str, str]]]:
    """The migration's ``ast`` without the filler, and its findings without their lines."""
    result = migrate_source(code, "m.py", Options(target=parse_version(target)))
    tree = ast.parse(result.code)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            node.body = [s for s in node.body if ast.unparse(s) != FILLER] or [ast.Pass()]
    findings = sorted((f.severity, _unlaid(f.message)) for f in result.report.findings)
    return ast.dump(tree), findings


def _unlaid(message: str) -> str:
    """A finding's message without the layout in the line it quotes."""
    for text in (f"{FILLER}; ", f"; {FILLER}", "class Op(Base): "):
        message = message.replace(text, "")
    return message


@pytest.mark.parametrize("layout", LAYOUTS[1:])
@pytest.mark.parametrize("case", BINDINGS, ids=lambda case: f"{case[0]} at {case[1]}")
def test_a_binding_migrates_the_same_whatever_the_bodys_layout(case, layout):
    binding, target = case
    assert outcome(program(binding, layout), target) == outcome(program(binding, LAYOUTS[0]), target)


def test_the_plain_layouts_are_migrated_or_said():
    """The reference layout itself: each binding is rewritten or refused with a finding, never passed over."""
    for binding, target in BINDINGS:
        code = program(binding, LAYOUTS[0])
        result = migrate_source(code, "m.py", Options(target=parse_version(target)))
        assert result.code != code or result.report.findings, binding


DERIVED = "vjp_fwd = vjp_fwd_from_jvp; vjp_bwd_retval = transpose_jvp"


def test_derived_helpers_are_paired_in_every_layout():
    """HJX007 pairs jax 0.11.0's helpers whatever the layout of the class body: the
    first half becomes the pair where it stands, the second goes (its ``;`` with it)."""
    head = "from jax.experimental.hijax import VJPHiPrimitive, vjp_fwd_from_jvp, transpose_jvp\n\n\n"
    plain = None
    for layout in LAYOUTS:
        code = program(DERIVED, layout).replace(HEAD, head).replace("(Base)", "(VJPHiPrimitive)")
        result = migrate_source(code, "m.py", Options(target=parse_version("0.11.1")))
        assert "vjp_fwd, vjp_bwd_retval = vjp_from_jvp" in result.code, layout
        assert not result.report.findings, layout
        assert not re.search(r";[ \t]*$", result.code, re.MULTILINE), layout  # no `;` left ending a line
        tree = ast.parse(result.code)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                node.body = [s for s in node.body if ast.unparse(s) != FILLER] or [ast.Pass()]
        plain = plain or ast.dump(tree)
        assert ast.dump(tree) == plain, layout
