"""Build a synthetic repository for the benchmark: mostly ordinary code,
about 1% hijax primitives (some subclassing bases from other modules) and
about 1% look-alikes (``vjp_bwd`` methods on classes that are no primitives).

``build(root, files)`` writes the tree and returns the sorted relative paths
of the files a migration must change, so the benchmark can check that
``--check`` lists exactly those.
"""

from __future__ import annotations

import math
import random
import textwrap
from pathlib import Path

_ORDINARY = '''\
"""Module {name}: ordinary code, with records and helpers."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import defaultdict

CONSTANT_{n} = {n}


@dataclasses.dataclass
class Record{n}:
    key: str
    values: list[int] = dataclasses.field(default_factory=list)

    def total(self) -> int:
        return sum(self.values)

    def scaled(self, factor: float) -> list[float]:
        return [value * factor for value in self.values]


class Registry{n}:
    """Keeps records by key; a plain class with a few methods."""

    def __init__(self):
        self._records: dict[str, Record{n}] = {{}}
        self._hits = defaultdict(int)

    def add(self, record: Record{n}) -> None:
        self._records[record.key] = record

    def get(self, key: str) -> Record{n} | None:
        self._hits[key] += 1
        return self._records.get(key)

    def pairs(self):
        for left, right in itertools.combinations(sorted(self._records), 2):
            yield self._records[left], self._records[right]

'''

_FUNCTION = """
@functools.lru_cache(maxsize=None)
def helper_{n}_{i}(x: int, y: int = {i}) -> int:
    # a comment that says why, as real code has
    if x < 0:
        raise ValueError(f"negative: {{x}}")
    result = 0
    for step in range(x):
        result += (step * y) % (x + 1)
    return result

"""

_BASES = '''\
"""Project-wide bases for the hijax primitives of this repository."""

from jax.experimental.hijax import VJPHiPrimitive


class ScaledBase(VJPHiPrimitive):
    scale = 2.0


class TracedBase(ScaledBase):
    def trace_name(self):
        return type(self).__name__
'''

_DIRECT = '''\
"""A hijax primitive subclassing jax's base directly."""

import jax.experimental.hijax as hjx


class Mul{n}(hjx.VJPHiPrimitive):
    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
'''

_CROSS = '''\
"""A hijax primitive subclassing a base from another module."""

from {package}.bases import {base}


class Square{n}({base}):
    def vjp_fwd(self, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2.0 * res * g,)
'''

_LOOKALIKE = '''\
"""A class with a vjp_bwd method that is no hijax primitive: never touched."""


class Tape{n}:
    def vjp_fwd(self, x):
        return x, x

    def vjp_bwd(self, res, g):
        return (g,)
'''


def _ordinary(rng: random.Random, n: int) -> str:
    # Sizes spread like real code (jax's and the standard library's own
    # files): a median near 7 kB, a long tail of large modules.
    functions = min(max(int(rng.lognormvariate(math.log(18), 0.9)), 2), 400)
    body = _ORDINARY.format(name=f"m{n}", n=n)
    return body + "".join(_FUNCTION.format(n=n, i=i) for i in range(functions))


def build(root: Path, files: int = 3000, seed: int = 0) -> list[str]:
    """Write the repository under ``root``; return the files that must change."""
    rng = random.Random(seed)
    package = "synth"
    must_change: list[str] = []
    (root / package).mkdir(parents=True, exist_ok=True)
    (root / package / "__init__.py").write_text("")
    (root / package / "bases.py").write_text(_BASES)
    for n in range(files - 2):
        folder = root / package / f"part{n // 100:02d}"
        if not folder.exists():
            folder.mkdir()
            (folder / "__init__.py").write_text("")
        path = folder / f"mod{n:05d}.py"
        kind = rng.random()
        if kind < 0.005:
            path.write_text(_DIRECT.format(n=n))
        elif kind < 0.01:
            base = rng.choice(("ScaledBase", "TracedBase"))
            path.write_text(_CROSS.format(n=n, package=package, base=base))
        elif kind < 0.02:
            path.write_text(_LOOKALIKE.format(n=n))
        else:
            path.write_text(_ordinary(rng, n))
            continue
        if kind < 0.01:
            must_change.append(path.relative_to(root).as_posix())
    (root / ".gitignore").write_text(
        textwrap.dedent("""\
        build/
        *.egg-info/
    """)
    )
    return sorted(must_change)


if __name__ == "__main__":  # pragma: no cover
    import sys

    changed = build(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3000)
    print("\n".join(changed))
