"""Names Python reads otherwise than they are written (NFKC): refused, never passed over.

The names beyond ASCII are found from their letters beyond ASCII, and they are exactly the
whole names (``\\w+``) holding one: fast against slow, over texts drawn to put such letters
at a name's start, middle and end, beside marks that are no word characters, digits and
combining marks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.spelling import _beyond_ascii, respelt
from hijax_migrate.core.model import Options
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.engine.triage import untouched
from hijax_migrate.sources.files import python_name
from hypothesis import given, settings
from hypothesis import strategies as st

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


WORDS = (b"vjp_bwd", b"def remat", b"HiPrim")
# ASCII letters of the words, letters NFKC reads as ASCII (fullwidth, ligature, script),
# letters it keeps, marks that end a name, a combining accent, digits beyond ASCII
PIECES = ["v", "j", "p", "_", "b", "w", "d", "H", "i", "P", "r", "m", "1", " ", "\n", "ｖ", "ｊ", "ﬁ", "Ｈ", "ℌ"]
PIECES += ["é", "π", "—", "·", "≤", "\u0301", "²", "٣"]


def _slow(code: str, words=WORDS) -> tuple[int, str, str] | None:
    """The reading by definition: every whole name, those beyond ASCII normalised."""
    names = {word.split()[-1].decode() for word in words}
    for match in re.finditer(r"\w+", code):
        name = match.group()
        read = python_name(name)
        if not name.isascii() and read != name and any(word in read for word in names):
            return code.count("\n", 0, match.start()) + 1, name, read
    return None


texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_the_names_beyond_ascii_are_the_whole_names_holding_such_a_letter(code):
    expected = [(m.start(), m.group()) for m in re.finditer(r"\w+", code) if not m.group().isascii()]
    assert [(m.start(), m.group()) for m in _beyond_ascii(code)] == expected


@settings(max_examples=600, deadline=None)
@given(texts)
def test_respelt_reads_as_every_name_is_read(code):
    assert respelt(code, WORDS) == _slow(code)


def test_a_name_spelt_otherwise_is_found_with_its_line():
    code = "x = 1  # café\ndef ｖjp_bwd(self):\n    pass\n"
    assert respelt(code, WORDS) == (2, "ｖjp_bwd", "vjp_bwd")
    assert respelt("π = 3.14  # ≤ — ²\n", WORDS) is None
