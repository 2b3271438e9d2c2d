"""The fault suite: in-place runs cut off at many points, over trees of
cross-file families (a base and its subclass in separate files, each
family a unit the tool writes whole), and after each, every family must be
wholly migrated or wholly original (after ``--recover`` for SIGKILL).

A point is the Nth write of the run: the tool, told by HIJAX_MIGRATE_FAULT
(``run/units.py``, read only there), creates a marker file after that
write and waits inside its unit; the suite sees the marker and sends the
signal (SIGINT to the group, SIGTERM to the parent, SIGKILL to the group).
Or the Nth write fails. Events, never sleeps, decide when: a loaded
machine only makes a run slower.

    python benchmarks/faults.py [RUNS] [FAMILIES]   (default: 100 runs, 12 families)

prints the counts: runs, interrupted points, families checked, half-migrated
families (0 is the goal; for SIGKILL also before --recover, for the record).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

TOOL = [sys.executable, "-m", "hijax_migrate", "--no-cache", "--target-jax", "0.10", "-q"]
KINDS = ("SIGINT", "SIGTERM", "SIGKILL", "write-error")
BASE = """from jax.experimental.hijax import VJPHiPrimitive


class Base{n}(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""
SUB = """from pkg.base{n} import Base{n}


class Sub{n}(Base{n}):
    def vjp_bwd(self, res, g):
        a, b = super().vjp_bwd(res, g)
        return (a, b)
"""
LEAF = """from pkg.sub{n} import Sub{n}


class Leaf{n}(Sub{n}):
    def vjp_bwd(self, res, g):
        return super().vjp_bwd(res, g)
"""


def family_files(n: int) -> dict[str, str]:
    """A base, its subclass, and (every third family) a subclass of that, in separate files."""
    files = {f"pkg/base{n}.py": BASE.format(n=n), f"pkg/sub{n}.py": SUB.format(n=n)}
    if n % 3 == 0:
        files[f"pkg/leaf{n}.py"] = LEAF.format(n=n)
    return files


def env() -> dict[str, str]:
    codemods = str(Path(__file__).resolve().parents[1] / "codemods")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([codemods, os.environ.get("PYTHONPATH", "")])}


@dataclass
class Tree:
    """A pristine tree of ``families`` and each file's bytes before and after a clean run."""

    root: Path
    families: list[list[str]]
    before: dict[str, bytes] = field(default_factory=dict)
    after: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def make(cls, root: Path, count: int) -> Tree:
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "__init__.py").write_text("")
        (root / ".git").mkdir()  # the project's root: the journal's place
        tree = cls(root, [])
        for n in range(count):
            files = family_files(n)
            tree.families.append(sorted(files))
            for name, text in files.items():
                (root / name).write_text(text)
                tree.before[name] = text.encode()
        clean = root.parent / "clean"
        shutil.copytree(root, clean)
        done = subprocess.run([*TOOL, "--in-place", "pkg"], cwd=clean, env=env(), capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        tree.after = {name: (clean / name).read_bytes() for name in tree.before}
        assert all(tree.after[name] != tree.before[name] for name in tree.before), "every file migrates"
        shutil.rmtree(clean)
        return tree

    def copy(self, where: Path) -> Path:
        shutil.copytree(self.root, where)
        return where

    def half_migrated(self, where: Path) -> tuple[int, list[str]]:
        """(half-migrated families, files neither original nor migrated)."""
        half, strange = 0, []
        for family in self.families:
            states = set()
            for name in family:
                data = (where / name).read_bytes()
                states.add("before" if data == self.before[name] else "after" if data == self.after[name] else "?")
                strange += [name] if data not in (self.before[name], self.after[name]) else []
            half += len(states) > 1
        return half, strange


@dataclass
class Result:
    kind: str
    point: int
    jobs: str
    interrupted: bool
    code: int
    half_before_recover: int
    half: int
    strange: list[str]
    journal_left: bool


def one_run(tree: Tree, where: Path, kind: str, point: int, jobs: str) -> Result:
    """A run cut off at the ``point``th write by ``kind``; the tree after it (and ``--recover``)."""
    work = tree.copy(where)
    marker = where.parent / f"{where.name}.held"
    fault = f"write-error:{point}" if kind == "write-error" else f"hold:{point}:{marker}"
    process = subprocess.Popen(
        [*TOOL, "--in-place", "-j", jobs, "pkg"],
        cwd=work,
        env={**env(), "HIJAX_MIGRATE_FAULT": fault},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    interrupted = kind == "write-error" or _held(marker, process)
    if interrupted and kind != "write-error":
        sig = getattr(signal, kind)
        (os.kill if kind == "SIGTERM" else os.killpg)(process.pid, sig)
    code = process.wait(timeout=600)
    said = process.stderr.read().decode(errors="replace")
    _wait_gone(process.pid)
    half_before, _ = tree.half_migrated(work)
    journal = work / ".hijax-migrate-journal"
    if kind == "SIGKILL" and journal.exists():
        subprocess.run([*TOOL[:3], "--recover", "."], cwd=work, env=env(), capture_output=True, check=True)
    half, strange = tree.half_migrated(work)
    if kind == "write-error" and point <= len(tree.before):
        interrupted = "injected write error" in said
    return Result(kind, point, jobs, interrupted, code, half_before, half, strange, journal.exists())


def _held(marker: Path, process: subprocess.Popen) -> bool:
    """Waits for the tool to reach the point (True), or to end without reaching it."""
    while not marker.exists():
        if process.poll() is not None:
            return False
        time.sleep(0.005)  # polling for the event, not guessing a delay
    return True


def _wait_gone(group: int) -> None:
    for _ in range(2400):
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def plan(runs: int, files: int, seed: int = 0) -> list[tuple[str, int, str]]:
    """``runs`` points: every kind in turn, the write and worker count drawn."""
    chance = random.Random(seed)
    return [(KINDS[i % len(KINDS)], chance.randint(1, files), chance.choice(["1", "2"])) for i in range(runs)]


def suite(runs: int, families: int, folder: Path) -> list[Result]:
    tree = Tree.make(folder / "pristine", families)
    return [
        one_run(tree, folder / f"run{i}", kind, point, jobs)
        for i, (kind, point, jobs) in enumerate(plan(runs, len(tree.before)))
    ]


def report(results: list[Result], families: int) -> str:
    killed = [r for r in results if r.kind == "SIGKILL"]
    lines = [
        f"runs: {len(results)}",
        f"interrupted points: {sum(r.interrupted for r in results)}",
        f"families checked: {len(results) * families}",
        f"half-migrated families: {sum(r.half for r in results)}",
        f"  before --recover, SIGKILL runs: {sum(r.half_before_recover for r in killed)}",
        "  other signals and write errors, before any --recover: "
        + str(sum(r.half_before_recover for r in results if r.kind != "SIGKILL")),
        f"files neither original nor migrated: {sum(len(r.strange) for r in results)}",
        f"journals left: {sum(r.journal_left for r in results)}",
    ]
    for kind in KINDS:
        mine = [r for r in results if r.kind == kind]
        lines.append(
            f"  {kind}: {len(mine)} runs, {sum(r.interrupted for r in mine)} interrupted, "
            f"exit codes {sorted({r.code for r in mine})}"
        )
    return "\n".join(lines)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    families = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hijax-faults-") as folder:
        results = suite(runs, families, Path(folder))
    print(report(results, families))
    print(f"time: {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
