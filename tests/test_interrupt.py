"""Real `hijax-migrate --in-place` processes killed at random moments.

Every file must come out either exactly as it was or exactly migrated, and
Ctrl-C (SIGINT to the process group) and SIGTERM must leave no temporary
files behind. SIGKILL cannot be caught: files are still never half-written.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hijax_migrate.context import Options
from hijax_migrate.engine import migrate_source

FILES = 160
OPTIONS = ["--in-place", "-q", "--target-jax", "0.10"]


def primitive_module(n: int) -> str:
    classes = "".join(
        f"\n\nclass Op{n}x{k}(VJPHiPrimitive):\n"
        f"    def vjp_fwd(self, nzs_in, x, y):\n        return x * y, (x, y)\n\n"
        f"    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n"
        for k in range(4))
    filler = "".join(f"\n\ndef helper_{k}(a, b):\n    return [a * i + b for i in range({k})]\n" for k in range(10))
    return "from jax.experimental.hijax import VJPHiPrimitive\n" + classes + filler


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, dict[str, tuple[bytes, bytes]]]:
    root = tmp_path_factory.mktemp("pristine")
    expected = {}
    for n in range(FILES):
        text = primitive_module(n)
        (root / f"mod{n:03d}.py").write_text(text)
        migrated = migrate_source(text, options=Options(target=(0, 10, 0))).code
        assert migrated != text
        expected[f"mod{n:03d}.py"] = (text.encode(), migrated.encode())
    return root, expected


def start(tree: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hijax_migrate", *OPTIONS, str(tree)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def states(tree: Path, expected) -> tuple[int, int]:
    """(original, migrated) counts; fails on any other content or stray file."""
    original = migrated = 0
    for name, (before, after) in expected.items():
        data = (tree / name).read_bytes()
        assert data in (before, after), f"{name} is neither original nor migrated"
        original, migrated = original + (data == before), migrated + (data == after)
    return original, migrated


def test_full_run_migrates_everything(pristine, tmp_path):
    root, expected = pristine
    tree = tmp_path / "tree"
    shutil.copytree(root, tree)
    assert start(tree).wait() == 0
    assert states(tree, expected) == (0, FILES)


@pytest.mark.parametrize("how", ["SIGINT-group", "SIGTERM-parent", "SIGKILL-group"])
def test_killed_runs_leave_every_file_whole(pristine, tmp_path, how):
    root, expected = pristine
    name, target = how.split("-")
    sig = getattr(signal, name)
    rng = random.Random(how)
    mixed = 0
    for trial in range(3):
        tree = tmp_path / f"tree{trial}"
        shutil.copytree(root, tree)
        process = start(tree)
        time.sleep(rng.uniform(0.4, 2.0))
        (os.killpg if target == "group" else os.kill)(process.pid, sig)
        code = process.wait(timeout=120)
        original, migrated = states(tree, expected)
        mixed += bool(original and migrated)
        leftovers = sorted(p.name for p in tree.iterdir() if not p.name.endswith(".py"))
        if sig != signal.SIGKILL:
            assert leftovers == [], f"temporary files left: {leftovers}"
            assert code in (0, 130), process.stderr.read()
            if code == 130:
                assert b"interrupted" in process.stderr.read()
        if sig != signal.SIGKILL:  # the workers are the parent's to stop: none outlives it
            with pytest.raises(ProcessLookupError):
                os.killpg(process.pid, 0)
    assert mixed, "no trial was interrupted mid-run; the tree is too small for this machine"
