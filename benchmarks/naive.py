"""The naive baseline: parse every Python file of a tree with libcst on all
cores, as a plain libcst codemod run over the tree does before any rule
looks at a file. Prints how many files it parsed.

    python benchmarks/naive.py DIR             # parse each file
    python benchmarks/naive.py --codegen DIR   # parse, then generate its code again

``--codegen`` is the floor of a rewrite: what libcst itself costs to read a
module and write it out, with no analysis and no rule. A folder of one file
is parsed in this process: a pool's start-up would be most of the time."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path


def _parse(path: str, codegen: bool = False) -> int:
    import libcst as cst

    try:
        module = cst.parse_module(Path(path).read_bytes())
        if codegen:
            module.code  # noqa: B018 (the generation is the work measured)
    except Exception:  # a baseline: errors count as work done
        return 0
    return 1


def main(root: str, codegen: bool = False) -> int:
    paths = [os.path.join(folder, name) for folder, _, names in os.walk(root) for name in names if name.endswith(".py")]
    if len(paths) == 1:
        parsed = _parse(paths[0], codegen)
    else:
        with ProcessPoolExecutor(os.cpu_count()) as pool:
            parsed = sum(pool.map(partial(_parse, codegen=codegen), paths, chunksize=16))
    print(f"{parsed} files parsed")
    return 0


if __name__ == "__main__":
    codegen = "--codegen" in sys.argv[1:]
    sys.exit(main([a for a in sys.argv[1:] if a != "--codegen"][0], codegen))
