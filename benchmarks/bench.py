"""Benchmark: ``hijax-migrate --check`` against its baselines, side by side.

    python benchmarks/bench.py [--files 3000] [--repeat 3] [--tree PATH]

Builds a synthetic repository (see ``synth.py``), unless ``--tree`` points
at a real one, and times on it, in one run and on the same machine:

- ``hijax-migrate --check``;
- the naive approach: every file parsed with libcst on all cores;
- ``grep -rl`` for the tool's pre-filter pattern: the floor.

Prints the best wall time of each, its peak memory (the largest process of
the command, workers included) and the ratios. On the synthetic tree it also
checks that ``--check`` lists exactly the files that need changes, and exits
1 if it does not.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

# The tool, run without the current folder on sys.path: a tree with its own
# typing.py or random.py (jax has both) must not shadow the standard library.
TOOL = [sys.executable, "-c", "import sys; del sys.path[0]; from hijax_migrate.cli import main; sys.exit(main())"]
GREP_PATTERN = r"vjp_\|HiPrim\|hijax\|linearize_from_jvp\|apply_derived_linearization\|transpose_jvp"


def measure(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MiB and stdout of one run of ``command``
    (which must exit 0 or 1: grep's and --check's "nothing found"/"found")."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
        # wait4 reports the largest resident set of the child and of every
        # descendant it waited for (the worker processes).
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise SystemExit(f"{command[0]} ... exited {code}")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read().decode()


def best_of(command: list[str], cwd: Path, repeat: int) -> tuple[float, float, str]:
    runs = [measure(command, cwd) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2]


def commands(tree: Path) -> dict[str, list[str]]:
    return {
        "hijax-migrate --check": [*TOOL, "--check", "-q", "--target-jax", "0.10", "."],
        "naive: libcst parse all": [sys.executable, str(HERE / "naive.py"), "."],
        "grep -rl (floor)": ["grep", "-rl", "--include=*.py", GREP_PATTERN, "."],
    }


def report(results: dict[str, tuple[float, float, str]]) -> str:
    ours = results["hijax-migrate --check"][0]
    lines = [f"{'command':<26}{'best wall':>11}{'peak RSS':>11}{'vs hijax-migrate':>19}"]
    for name, (wall, rss, _) in results.items():
        lines.append(f"{name:<26}{wall:>10.2f}s{rss:>8.0f} MiB{wall / ours:>18.1f}x")
    naive, grep = results["naive: libcst parse all"][0], results["grep -rl (floor)"][0]
    lines.append(f"hijax-migrate is {naive / ours:.1f}x faster than the naive approach "
                 f"(goal: >= 30x) and {ours / grep:.1f}x slower than grep")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000, help="size of the synthetic tree")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command; the best counts")
    parser.add_argument("--tree", type=Path, help="time a real repository instead")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        tree, expected = args.tree, None
        if tree is None:
            tree = Path(scratch)
            expected = synth.build(tree, args.files)
        count = sum(1 for _ in tree.rglob("*.py"))
        print(f"tree: {tree} ({count} Python files, {os.cpu_count()} cores)")
        results = {name: best_of(cmd, tree, args.repeat) for name, cmd in commands(tree).items()}
        print(report(results))
        if expected is not None:
            listed = sorted(results["hijax-migrate --check"][2].split())
            ok = listed == expected
            print(f"--check listed {len(listed)} files; {len(expected)} need changes: "
                  f"{'exactly those' if ok else 'MISMATCH'}")
            return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
