"""How time and memory grow with the size of one module.

Writes a synthetic module of each size (primitive classes to migrate among
ordinary functions, from synth.py's templates), runs the real command on it in a fresh
process, and prints CPU time and peak memory. Per MiB, past what a tiny
module costs (start-up, imports), each is also a ratio to the smallest
size's: ratios near 1 mean linear growth.

    python benchmarks/bigfile.py              # 128 KiB to 1.5 MiB
    python benchmarks/bigfile.py 256 2048     # sizes in KiB

CPU time, not wall time, so a busy machine changes the figures less; the
cache is off (a run's own cost, as the first run over a tree).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import synth  # the benchmark's own code templates, beside this script

HEADER = "import functools\n\nimport jax.experimental.hijax as hjx\n\n"


def chunk(n: int) -> str:
    """Two primitives to migrate among ordinary functions, as a busy module has."""
    primitives = "".join(synth._DIRECT.format(n=f"{n}x{k}").split("\n\n\n", 1)[1] + "\n\n" for k in range(2))
    return primitives + "".join(synth._FUNCTION.format(n=n, i=i) for i in range(4))


def module(size: int) -> str:
    """A module of at most ``size`` bytes (the tool refuses one byte over its limit)."""
    parts, total, n = [HEADER], len(HEADER), 0
    while n == 0 or total + len(chunk(n)) <= size:  # one chunk at least: the base case has primitives
        parts.append(chunk(n))
        total, n = total + len(parts[-1]), n + 1
    return "".join(parts)


def measure(path: Path) -> tuple[float, int]:
    """CPU seconds and peak resident memory (bytes) of one run of the tool."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        raise SystemExit(f"the tool failed on {path}:\n{run.stderr}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu, int(run.stdout.split()[-1])


# The child reports its own peak memory: RUSAGE_CHILDREN's is the largest child's so far.
_CHILD = """
import resource, sys
from hijax_migrate.cli import main
code = main(["-q", "--no-cache", "-j", "1", "--target-jax", "0.10", sys.argv[1]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
sys.exit(code)
"""


def _alone(folder: Path, name: str) -> Path:
    """A folder of its own: the run's tree is that one module, not the others."""
    (folder / name[:-3]).mkdir()
    return folder / name[:-3] / name


def main(sizes_kib: list[int]) -> None:
    print(f"{'size':>8} {'cpu s':>8} {'peak MB':>8} {'s/MiB':>7} {'MB/MiB':>7} {'time ratio':>10} {'mem ratio':>9}")
    first = None
    with tempfile.TemporaryDirectory() as folder:
        base = _alone(Path(folder), "base.py")  # start-up and imports: subtracted from each size
        base.write_text(module(1))
        base_cpu, base_peak = measure(base)
        for kib in sizes_kib:
            path = _alone(Path(folder), f"big{kib}.py")
            path.write_text(module(kib * 1024))
            cpu, peak = measure(path)
            mib = (path.stat().st_size - base.stat().st_size) / 2**20
            per = ((cpu - base_cpu) / mib, (peak - base_peak) / 2**20 / mib)
            first = first or per
            print(
                f"{kib:>6}Ki {cpu:8.1f} {peak / 2**20:8.0f} {per[0]:7.1f} {per[1]:7.0f} "
                f"{per[0] / first[0]:10.2f} {per[1] / first[1]:9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [128, 256, 512, 1024, 1536])
