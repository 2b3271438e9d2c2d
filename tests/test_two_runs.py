"""Two runs in one process give what two processes give: a run's state is
made at its start and gone at its end (``run/state.py``), so nothing one
run found of a tree (its listing, its packages, its files' bytes, the uses
of a rule, the originals of files it wrote) serves the next. Each run here
follows the last in this process, with no reset between them, over trees at
the same path whose every difference a leaked state would hide."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.cli import main
from test_accum_calls import BASE, CALLER

SUB = "from ops import Mul\n\n\nclass Sub(Mul):\n    def vjp_bwd(self, res, g):\n        return (g, g)\n"
ADD = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Add(VJPHiPrimitive):\n"
    "    def vjp_fwd(self, nzs_in, x, y):\n        return x + y, None\n\n"
    "    def vjp_bwd(self, res, g):\n        return (g, g)\n"
)

# The same relative paths, other contents. In a package, ``from ops import``
# finds nothing (the base is unresolved); without one, pkg/ is a root of its
# own and Sub is a primitive. ops.py's rule is used elsewhere in the first
# tree (renamed, not given accumulators), not in the second, which has a
# file more; in the last, Mul is no primitive (nor, then, is Sub).
PACKAGE = {"pkg/__init__.py": "", "pkg/ops.py": BASE.format(accs=""), "pkg/use.py": CALLER, "pkg/sub.py": SUB}
FOLDER = {"pkg/ops.py": BASE.format(accs=""), "pkg/use.py": "x = 1\n", "pkg/sub.py": SUB, "pkg/add.py": ADD}
CALLED = {**FOLDER, "pkg/use.py": CALLER}  # the same tree, changed: the rule is used elsewhere
PLAIN = {**FOLDER, "pkg/ops.py": "class Mul:\n    pass\n"}
DIFF = ("--diff", "--strategy", "accum", "--target-jax", "0.10", "--no-cache", "--color", "never")


def write(root: Path, files: dict[str, str]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def in_a_process_of_its_own(root: Path, args: tuple[str, ...]) -> tuple:
    done = FORKER.module("hijax_migrate", [*args, "."], root)  # a fresh process (fresh_runs)
    return done.returncode, done.stdout, done.stderr, snapshot(root)


def in_this_process(root: Path, args: tuple[str, ...], capsys, monkeypatch) -> tuple:
    monkeypatch.chdir(root)
    code = main([*args, "."])
    out, err = capsys.readouterr()
    return code, out, err, snapshot(root)


# Each step: the tree it starts from (None: as the last step left it), and the flags.
STEPS = [
    (PACKAGE, DIFF),
    (FOLDER, DIFF),  # another tree at the same path
    (CALLED, (*DIFF, "--jobs", "2")),  # that tree changed, its searches made by a forked child
    (PACKAGE, (*DIFF, "--output-format", "json")),
    (FOLDER, ("--in-place", *DIFF[1:])),  # written: the originals kept meanwhile
    (None, DIFF),  # the tree the last run wrote: nothing left to do
    (PACKAGE, ("--in-place", *DIFF[1:])),
    (PLAIN, ("--check", *DIFF[1:])),  # ops.py as found by the last run is not this one's
]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_runs_in_one_process_give_what_separate_processes_give(tmp_path, capsys, monkeypatch, jobs):
    root = tmp_path / "tree"
    left = {}
    results = []
    for files, args in STEPS:
        args = (*args, "--jobs", jobs) if "--jobs" not in args else args
        files = files if files is not None else left
        write(root, files)
        alone = in_a_process_of_its_own(root, args)
        write(root, files)
        results.append((in_this_process(root, args, capsys, monkeypatch), alone))
        left = alone[3]
    for step, (here, alone) in enumerate(results):
        assert here == alone, (step, STEPS[step][1])
    codes = [alone[0] for _, alone in results]
    assert codes == [1, 1, 1, 1, 0, 0, 0, 1]
    diffs = [alone[1] for _, alone in results]  # not vacuous: each step differs from the last
    assert "+class Sub(Mul):" not in diffs[0] and "x_acc" not in diffs[0] and "add.py" not in diffs[0]
    assert "def vjp_bwd(self, res, g, x_acc, y_acc)" in diffs[1] and "pkg/add.py" in diffs[1]
    assert "pkg/sub.py" in diffs[1] and "def vjp_bwd_retval(self, res, g):" in diffs[2] and "x_acc" not in diffs[2]
    report = json.loads(diffs[3])
    assert [c["file"] for c in report["changes"]] == ["pkg/ops.py"] and "use.py" in report["changes"][0]["action"]
    # the fallback from accumulators to a rename is said as a note, beside sub.py's unresolved base
    assert [w["file"] for w in report["warnings"]] == ["pkg/ops.py", "pkg/sub.py"]
    assert report["warnings"][0]["severity"] == "note" and "--strategy accum" in report["warnings"][0]["message"]
    assert diffs[5] == "" and results[5][1][3] == results[4][1][3]  # written whole: nothing left
    assert diffs[7].split() == ["pkg/add.py"]


def test_a_run_leaves_the_callers_garbage_collection_as_it_found_it(tmp_path, capsys, monkeypatch):
    """A run collects cycles rarely (``runner.collecting_rarely``), and puts the
    caller's pace back when it ends, a failing run too."""
    import gc

    from hijax_migrate.run import runner

    seen, prefiltered = [], runner._prefiltered
    monkeypatch.setattr(runner, "_prefiltered", lambda *a: seen.append(gc.get_threshold()) or prefiltered(*a))
    write(tmp_path, FOLDER)
    before = gc.get_threshold()
    gc.set_threshold(1234, 11, 12)
    try:
        assert main([*DIFF, "-j1", str(tmp_path)]) == 1
        assert gc.get_threshold() == (1234, 11, 12) and seen == [(runner._YOUNG, 11, 12)]
        assert main([*DIFF, "-j1", str(tmp_path / "missing.py")]) != 0
        assert gc.get_threshold() == (1234, 11, 12)
    finally:
        gc.set_threshold(*before)
    capsys.readouterr()
