"""Real `hijax-migrate --in-place` processes killed mid-run.

Each signal is sent on an event the test sees (the first migrated file, the
tool saying it is stopping), never after a guessed delay: a busy machine
only makes the run slower, never the test wrong. Every file must come out
either exactly as it was or exactly migrated, and Ctrl-C (SIGINT to the
process group) and SIGTERM must leave no temporary files behind. SIGKILL
cannot be caught: files are still never half-written, and no worker
outlives its parent.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

FILES = 60
OPTIONS = ["--in-place", "-q", "--target-jax", "0.10"]


def primitive_module(n: int) -> str:
    classes = "".join(
        f"\n\nclass Op{n}x{k}(VJPHiPrimitive):\n"
        f"    def vjp_fwd(self, nzs_in, x, y):\n        return x * y, (x, y)\n\n"
        f"    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n"
        for k in range(4)
    )
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


def start(tree: Path, *flags: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "hijax_migrate", *OPTIONS, *flags, str(tree)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def states(tree: Path, expected) -> tuple[int, int]:
    """(original, migrated) counts; fails on any other content or stray file."""
    original = migrated = 0
    for name, (before, after) in expected.items():
        data = (tree / name).read_bytes()
        assert data in (before, after), f"{name} is neither original nor migrated"
        original, migrated = original + (data == before), migrated + (data == after)
    return original, migrated


def first_write(tree: Path, expected, process: subprocess.Popen) -> None:
    """Returns once the run has migrated a file: the event every test waits for."""
    watched = [(tree / name, after) for name, (_, after) in sorted(expected.items())[:12]]
    while not any(path.read_bytes() == after for path, after in watched):
        assert process.poll() is None, "the run ended before writing a file"
        time.sleep(0.01)  # polling, not timing: the event decides


def gone(group: int) -> bool:
    """No process of the run's group is left (each checked until it is)."""
    for _ in range(1200):  # a worker may be finishing its write: up to a minute
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def copy(pristine, tmp_path: Path, name: str = "tree") -> Path:
    root, _ = pristine
    tree = tmp_path / name
    shutil.copytree(root, tree)
    return tree


def test_full_run_migrates_everything(pristine, tmp_path):
    _, expected = pristine
    tree = copy(pristine, tmp_path)
    assert start(tree).wait() == 0
    assert states(tree, expected) == (0, FILES)


@pytest.mark.parametrize("how", ["SIGINT-group", "SIGTERM-parent", "SIGKILL-group", "SIGKILL-parent"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_killed_runs_leave_every_file_whole(pristine, tmp_path, how, jobs):
    """The signal comes once the first file is written: the run is mid-way."""
    _, expected = pristine
    name, target = how.split("-")
    sig = getattr(signal, name)
    tree = copy(pristine, tmp_path)
    process = start(tree, "-j", jobs)
    first_write(tree, expected, process)
    (os.killpg if target == "group" else os.kill)(process.pid, sig)
    code = process.wait(timeout=300)
    assert gone(process.pid), "a worker outlived the run"
    original, migrated = states(tree, expected)
    assert migrated >= 1
    leftovers = sorted(p.name for p in tree.iterdir() if not p.name.endswith(".py"))
    if sig != signal.SIGKILL:
        assert leftovers == [], f"temporary files left: {leftovers}"
        assert code in (0, 130), process.stderr.read()
        if code == 130:
            assert b"interrupted" in process.stderr.read()


@pytest.mark.parametrize("second", ["once-it-says-so", "at-once"])
def test_a_second_ctrl_c_stops_at_once(pristine, tmp_path, second):
    """The first Ctrl-C lets the files in progress finish; the second, sent
    once the tool says it is stopping (or right after the first, while the
    tool waits on its workers), ends the workers: exit 130, no hang, no
    traceback, no process left, every file whole, no temporary file."""
    _, expected = pristine
    tree = copy(pristine, tmp_path)
    process = start(tree, "-j", "2")
    first_write(tree, expected, process)
    os.killpg(process.pid, signal.SIGINT)
    if second == "once-it-says-so":
        said = process.stderr.readline()
        assert b"Ctrl-C again to stop now" in said, said
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=300) == 130
    said = process.stderr.read()
    assert b"interrupted" in said and b"Traceback" not in said, said  # nor one from the pool's thread
    assert gone(process.pid), "a worker outlived the run"
    states(tree, expected)
    assert sorted(p.name for p in tree.iterdir() if not p.name.endswith(".py")) == []


def test_signals_in_a_pools_waits_are_counted_and_the_first_raised_after():
    """While the parent waits on its workers, Ctrl-C is counted, not raised
    inside the locks it waits with; the first is raised once the wait is over."""
    from hijax_migrate.run.interrupts import Interrupts

    previous = signal.getsignal(signal.SIGINT)
    interrupts = Interrupts()
    try:
        with interrupts.counted():
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGTERM)
        assert interrupts.count == 2
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()
        interrupts.check()  # once only
        signal.raise_signal(signal.SIGINT)  # later ones are counted: the pool ends its workers on them
        assert interrupts.count == 3
    finally:
        interrupts.restore()
    assert signal.getsignal(signal.SIGINT) is previous


def test_ctrl_c_on_the_way_out_keeps_exit_130(pristine, tmp_path):
    """A single-process run stops at the first Ctrl-C. A second one, sent once
    the tool says it was interrupted, arrives on its way out: still exit 130,
    not a traceback or a death by SIGINT."""
    _, expected = pristine
    tree = copy(pristine, tmp_path)
    process = start(tree, "-j", "1")
    first_write(tree, expected, process)
    os.killpg(process.pid, signal.SIGINT)
    said = process.stderr.readline()
    assert b"interrupted" in said, said
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=300) == 130
    assert b"Traceback" not in process.stderr.read()
    assert gone(process.pid), "a process outlived the run"
    states(tree, expected)
    assert sorted(p.name for p in tree.iterdir() if not p.name.endswith(".py")) == []
