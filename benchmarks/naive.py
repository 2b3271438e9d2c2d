"""The naive baseline: parse every Python file of a tree with libcst on all
cores, as a plain libcst codemod run over the tree does before any rule
looks at a file. Prints how many files it parsed."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _parse(path: str) -> int:
    import libcst as cst

    try:
        cst.parse_module(Path(path).read_bytes())
    except Exception:  # a baseline: errors count as work done
        return 0
    return 1


def main(root: str) -> int:
    paths = [os.path.join(folder, name) for folder, _, names in os.walk(root)
             for name in names if name.endswith(".py")]
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        parsed = sum(pool.map(_parse, paths, chunksize=16))
    print(f"{parsed} files parsed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
