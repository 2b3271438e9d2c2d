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


def test_a_gitignored_subclass_of_a_family_is_named_in_a_note(tmp_path):
    """Picked: a note (in every format) on the run's file the ignored class
    extends; the family is migrated without the ignored file, which stays as
    it is until named."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import faults

    files = faults.family_files(0)
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "local").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name in ("pkg/base0.py", "pkg/sub0.py"):
        (tmp_path / name).write_text(files[name])
    mine = files["pkg/leaf0.py"].replace("Leaf0", "Mine0")
    (tmp_path / "pkg" / "mine.py").write_text(mine)
    (tmp_path / "local" / "other.py").write_text(files["pkg/sub0.py"].replace("Sub0", "Other0"))
    (tmp_path / ".gitignore").write_text("pkg/mine.py\nlocal/\n")
    code, out, err = run(tmp_path, "--check", ".")
    notes = [line for line in (out + err).splitlines() if "gitignored" in line]
    assert any(line.startswith("note: pkg/sub0.py:4:") and "pkg/mine.py" in line for line in notes), out + err
    assert any(line.startswith("note: pkg/base0.py:4:") and "local/other.py" in line for line in notes), out + err
    code, out, err = run(tmp_path, "--check", "--output-format", "json", ".")
    assert "pkg/mine.py is gitignored" in out
    code, out, err = run(tmp_path, "--check", ".", "pkg/mine.py")  # named: in the run
    assert "pkg/mine.py is gitignored" not in out + err and "local/other.py is gitignored" in out + err
    code, out, err = run(tmp_path, "--in-place", ".")
    assert (tmp_path / "pkg" / "mine.py").read_text() == mine  # left as it is, and said
