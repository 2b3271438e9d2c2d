"""Notebooks and Markdown (issue 41). A notebook is parsed only when its
bytes may hold a rule's word, its escapes read: an unrelated broken notebook
(not JSON, no hijax word, a ``\\u`` escape in it, as google/aqt holds one) is no
candidate, and ``--check`` exits 0; a broken one that may hold a word stays
an error. A fence indented inside a list item keeps its whitespace-only lines
byte for byte: only the lines the rule rewrites change.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from hijax_migrate.cli import main

BROKEN = '{"cells": [{"cell_type": "code", "source": ["print(\\"\\u00e9\\")\\n"], "outputs": [],},], "metadata": {}}\n'
BROKEN_WITH_WORD = BROKEN.replace("print", "\\u0076jp_bwd")


def run(root: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--no-cache", "-j", "1", "--target-jax", "0.10", *args])
    finally:
        os.chdir(previous)
    return code, out.getvalue(), err.getvalue()


def test_an_unrelated_broken_notebook_is_no_candidate(tmp_path):
    (tmp_path / "colab.ipynb").write_text(BROKEN)
    code, out, err = run(tmp_path, "--check", ".")
    assert code == 0, err
    assert "colab.ipynb" not in out + err


def test_a_broken_notebook_that_may_hold_a_word_stays_an_error(tmp_path):
    (tmp_path / "colab.ipynb").write_text(BROKEN_WITH_WORD)
    code, _, err = run(tmp_path, "--check", ".")
    assert code == 3 and "colab.ipynb" in err and "not a notebook" in err


LIST_ITEM = """# Steps

1. Define the primitive:

   ```python
   from jax.experimental.hijax import VJPHiPrimitive
   {ws}
   {ws}
   class P(VJPHiPrimitive):
       def vjp_fwd(self, nzs_in, x):
           return x, None
   {ws}
       def vjp_bwd(self, res, g):
           return (g,)
  {ws}
   ```

2. Done.
"""


def test_a_fence_in_a_list_item_keeps_its_whitespace_only_lines(tmp_path):
    text = LIST_ITEM.replace("{ws}", "  ")  # whitespace-only lines of three and four spaces
    (tmp_path / "guide.md").write_text(text)
    code, _, err = run(tmp_path, "--in-place", "guide.md")
    assert code == 0, err
    after = (tmp_path / "guide.md").read_text()
    before_lines, after_lines = text.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(before_lines) == len(after_lines)
    changed = [b for b, a in zip(before_lines, after_lines) if a != b]
    assert changed and all("vjp_bwd" in line for line in changed), changed
