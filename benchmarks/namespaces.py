"""The refusal table of issue 40 over the data model's generator: programs
whose rules are bound, named and reached in the forms of the language
reference (``program_namespaces.draw_namespace``).

    python benchmarks/namespaces.py [--programs 100] [--seed 0] [--targets 0.10,0.12]
                                    [--strategies auto,accum] [--show refused|wrong|silent|unchecked]
                                    [--by-form] [--reference]

Each program is migrated under each strategy and target and run under that
jax, as ``refusals.py`` does (0.12: the interpreter named by
``HIJAX_PY312``), and scored correct, refused (grouped by message), wrong,
silent (unchanged, no error, ``--check`` passes, and it fails under the
target) or n/a (PEP 695 syntax at jax 0.10, whose Python is 3.11); the naive
rename is scored beside the tool, and the programs it gets right that the
tool does not are listed. ``--reference`` runs each program as written for
the target (its stated gradients checked, not the tool). Exit 1 if any
program is wrong or silent.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import program_namespaces  # noqa: E402 (found through the path set above)
import refusals  # noqa: E402


def by_hand(folder: Path, tree: program_namespaces.Namespace, target: str, strategy: str) -> None:
    """The program as written for the target, in place of the tool's migration."""
    del strategy
    refusals.write_tree(folder, program_namespaces.Namespace(tree.references[target[:4]]))


def draw(programs: int, seed: int) -> dict[str, program_namespaces.Namespace]:
    rng = random.Random(seed)
    return {f"n{i:04d}": program_namespaces.draw_namespace(rng.choice, f"n{i:04d}") for i in range(programs)}


def main(argv=None) -> int:
    args = refusals.parser(__doc__).parse_args(argv)
    return refusals.table(draw(args.programs, args.seed), program_namespaces.FORMS, args, by_hand)


if __name__ == "__main__":
    sys.exit(main())
