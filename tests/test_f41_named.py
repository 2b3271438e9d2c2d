"""Files named on the command line (issue 41). One that is not Python, a
notebook or Markdown (``notes.txt`` naming ``vjp_bwd``) is skipped with one
warning line naming it, exit 0, as ruff does; never "syntax error", exit 3.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from hijax_migrate.cli import main


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


def test_a_named_file_that_is_no_source_is_skipped_with_a_warning(tmp_path):
    (tmp_path / "notes.txt").write_text("remember to rename vjp_bwd\n")
    (tmp_path / "mod.py").write_text("x = 1\n")
    for args in (("--check",), ("--in-place",), ()):
        code, out, err = run(tmp_path, *args, "notes.txt", "mod.py")
        assert code == 0, err
        said = [line for line in err.splitlines() if "notes.txt" in line]
        assert len(said) == 1 and said[0].startswith("warning:") and "skipped" in said[0], err
        assert "syntax error" not in out + err
    assert (tmp_path / "notes.txt").read_text() == "remember to rename vjp_bwd\n"
