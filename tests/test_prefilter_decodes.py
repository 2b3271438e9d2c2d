"""The pre-filter reads what Python would read: a file whose bytes are ASCII
but whose text is not (a utf-7, unicode_escape or iso2022_jp coding cookie,
a notebook's JSON ``\\uXXXX`` escapes) names the words its text names.

The reference is the pre-filter on the decoded text, spelt plainly in
UTF-8 (tests/test_candidates.py holds that one to the full migration): for
any hiding of a golden case's text, the file's words include it, so the
pre-filter never says "nothing to do" where the full reading finds something.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.engine.triage import every_word
from hijax_migrate.sources.files import file_words, named_words
from hijax_migrate.sources.notebook_code import code_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golden import GOLDEN, read_case

WORDS = every_word()
CASES = [read_case(path).source for path in sorted(GOLDEN.glob("*.py"))]
CASES = [code for code in CASES if code.isascii() and named_words(code.encode(), WORDS)]


def _utf7(char: str) -> str:
    return "+" + base64.b64encode(char.encode("utf-16-be")).decode().rstrip("=") + "-"


def hide_utf7(code: str, hidden: list[bool]) -> bytes:
    """Letters spelt as utf-7 shifted sequences (``+AHY-`` is ``v``)."""
    spelt = "".join(_utf7(c) if c.isalpha() and h else c.replace("+", "+-") for c, h in zip(code, hidden))
    return ("# -*- coding: utf-7 -*-\n" + spelt).encode("ascii")


def hide_escapes(code: str, hidden: list[bool]) -> bytes:
    """Letters spelt as ``\\xNN`` escapes, the whole file read as unicode_escape."""
    spelt = "".join(f"\\x{ord(c):02x}" if c.isalpha() and h else c.replace("\\", "\\\\") for c, h in zip(code, hidden))
    return ("# coding: unicode_escape\n" + spelt).encode("ascii")


def hide_wide(code: str, hidden: list[bool]) -> bytes:
    """Letters as their full-width forms (NFKC gives them back), in iso2022_jp's escape sequences."""
    spelt = "".join(chr(ord(c) + 0xFEE0) if c.isalpha() and c.isascii() and h else c for c, h in zip(code, hidden))
    return ("# -*- coding: iso2022_jp -*-\n" + spelt).encode("iso2022_jp")


def notebook(code: str, hidden: list[bool]) -> bytes:
    """A notebook of one code cell and a bulky output, its letters ``\\u`` escaped at random."""
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": {},
        "outputs": [{"output_type": "display_data", "data": {"image/png": "iVBOR" * 50}, "metadata": {}}],
        "source": code.splitlines(keepends=True),
    }
    text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    marks = iter(hidden * (len(text) // max(len(hidden), 1) + 1))
    return "".join(f"\\u{ord(c):04x}" if c.isalpha() and next(marks) else c for c in text).encode("ascii")


HIDERS = {"utf7": hide_utf7, "escapes": hide_escapes, "wide": hide_wide}


def reference(name: str, data: bytes) -> frozenset[bytes]:
    """The words of the text Python (or Jupyter) reads from ``data``."""
    if name.endswith(".ipynb"):
        return named_words(code_text(data).encode("utf-8"), WORDS)
    import io
    import tokenize

    encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    text = data.decode(encoding).split("\n", 1)[1]  # past the cookie: UTF-8 now
    return named_words(text.encode("utf-8"), WORDS)


def words_of(tmp_path: Path, name: str, data: bytes) -> frozenset[bytes]:
    path = tmp_path / name
    path.write_bytes(data)
    return file_words(path, WORDS)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    case=st.sampled_from(CASES),
    how=st.sampled_from([*HIDERS, "notebook"]),
    seed=st.integers(0, 2**32),
    density=st.floats(0, 1),
)
def test_the_words_of_a_hidden_text_are_found(tmp_path, case, how, seed, density):
    chance = random.Random(seed)
    hidden = [chance.random() < density for _ in case]
    raw = notebook(case, hidden) if how == "notebook" else HIDERS[how](case, hidden)
    assert raw.isascii()
    name = "nb.ipynb" if how == "notebook" else "m.py"
    expected = reference(name, raw)
    assert expected, "a golden case names a word"
    assert words_of(tmp_path, name, raw) >= expected


@pytest.mark.parametrize("how", [*HIDERS, "notebook"])
def test_every_letter_hidden_still_names_the_words(tmp_path, how):
    case = CASES[0]
    raw = notebook(case, [True] * len(case)) if how == "notebook" else HIDERS[how](case, [True] * len(case))
    name = "nb.ipynb" if how == "notebook" else "m.py"
    assert not any(word.split()[-1] in raw for word in WORDS), "the hiding hides every word from a byte search"
    assert words_of(tmp_path, name, raw) >= reference(name, raw)


def test_a_big_stateful_file_is_sent_on(tmp_path):
    """Past the first chunk a stateful encoding cannot be searched piecewise: the file goes to the full reading."""
    raw = hide_utf7(CASES[0], [True] * len(CASES[0])) + b"\n# padding\n" * 200_000
    assert words_of(tmp_path, "big.py", raw) == WORDS


def test_plain_ascii_files_are_not_decoded_again(tmp_path):
    """A cookie naming an encoding that reads ASCII as ASCII changes nothing."""
    assert words_of(tmp_path, "a.py", b"# coding: latin-1\nx = 1\n") == frozenset()


@pytest.mark.parametrize("how", [*HIDERS, "notebook"])
def test_the_command_line_does_not_call_a_hidden_primitive_clean(tmp_path, how):
    """End to end: the file is read in full and reported (migrated, or refused
    with a reason), never "0 primitives" and exit 0."""
    case = CASES[0]
    raw = notebook(case, [True] * len(case)) if how == "notebook" else HIDERS[how](case, [True] * len(case))
    (tmp_path / ("nb.ipynb" if how == "notebook" else "m.py")).write_bytes(raw)
    run = FORKER.module("hijax_migrate", ["--check", "--no-cache", "--target-jax", "0.12", "."], tmp_path)
    assert run.returncode in (1, 3), run.stderr
    assert "0 primitives found, would migrate 0 files; 0 errors left to fix by hand, 0 notes, 0 files" not in run.stderr
