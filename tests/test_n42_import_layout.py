"""Issue 42, import edits that keep the file's layout: where a ``from``
import lists one name a line, the edited list does too, the closing
parenthesis on its own line; output on black-formatted input is unchanged by black."""

from __future__ import annotations

import ast
import difflib

import black
import pytest
from hijax_migrate.core.versions import parse_target
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.rules.context import Options

from golden import all_cases, read_case

MODE = black.Mode()  # black's defaults: 88 columns
CASES = all_cases()


def _black(code: str) -> str | None:
    try:
        return black.format_str(code, mode=MODE)
    except Exception:  # a case black cannot parse (a syntax it does not know) is not black's input
        return None


@pytest.mark.parametrize("target", ["0.11.1", "0.12"])
def test_output_on_black_formatted_input_is_unchanged_by_black(target):
    """Every golden input black formats, migrated: black leaves the output as
    it is (one test a target: a case refused, or one black cannot read, has no output to check)."""
    checked, moved = 0, []
    for path in CASES:
        source = _black(read_case(path).source)
        try:
            out = migrate_source(source, path.name, Options(parse_target(target)[0])).code if source else None
        except MigrationError:
            out = None
        if out is not None and out != source:
            checked += 1
            moved += [path.name] if _moved_imports(out, _black(out)) else []
    assert not moved and checked >= 100


def _moved_imports(out: str, formatted: str | None) -> bool:
    """Does black change a line of an import statement of ``out``? (A rename that makes
    another line longer than black's 88 columns is black's to wrap, and ``--black``'s.)"""
    if formatted is None or formatted == out:
        return False
    spans = [
        (node.lineno, node.end_lineno)
        for node in ast.walk(ast.parse(out))
        if isinstance(node, (ast.Import, ast.ImportFrom))
    ]
    changed = difflib.SequenceMatcher(None, out.splitlines(), formatted.splitlines(), autojunk=False)
    lines = {i + 1 for tag, i1, i2, _, _ in changed.get_opcodes() if tag != "equal" for i in range(i1, max(i2, i1 + 1))}
    return any(first <= line <= last for line in lines for first, last in spans)


def test_a_rename_black_wraps_is_no_import_moved():
    out = "from m import (\n    a,\n    b,\n)\n\nx = " + "f(aaaaaaaaaa, " * 8 + "b" + ")" * 8 + "\n"
    assert _moved_imports(out, _black(out)) is False
    assert _moved_imports("from m import (a,\n  b)\n", _black("from m import (a,\n  b)\n")) is True


def test_there_are_cases_with_import_lists():
    exploded = [path for path in CASES if "import (\n" in (_black(read_case(path).source) or "")]
    assert len(exploded) >= 4


PAIRS = """from jax.experimental.hijax import (
    HiType,  # the type
    VJPHiPrimitive,
    transpose_jvp,
    vjp_fwd_from_jvp,
)


class P(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp
"""


def migrated(code: str, target: str = "0.11.1") -> str:
    return migrate_source(code, "m.py", Options(parse_target(target)[0])).code


def test_a_new_name_takes_its_own_line_and_the_parenthesis_stays():
    out = migrated(PAIRS)
    assert out.startswith(
        "from jax.experimental.hijax import (\n    HiType,  # the type\n    VJPHiPrimitive,\n    vjp_from_jvp,\n)\n"
    )


def test_an_unsorted_list_gets_the_new_name_last():
    code = PAIRS.replace("    HiType,  # the type\n    VJPHiPrimitive,\n", "    VJPHiPrimitive,\n    HiType,\n")
    assert migrated(code).startswith(
        "from jax.experimental.hijax import (\n    VJPHiPrimitive,\n    HiType,\n    vjp_from_jvp,\n)\n"
    )


def test_a_one_line_import_is_left_as_the_edit_writes_it():
    code = PAIRS.replace(
        "(\n    HiType,  # the type\n    VJPHiPrimitive,\n    transpose_jvp,\n    vjp_fwd_from_jvp,\n)",
        "HiType, VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp",
    )
    first = migrated(code).splitlines()[0]
    assert first.startswith("from jax.experimental.hijax import ") and "(" not in first
    assert _black(migrated(code)) == migrated(code)
