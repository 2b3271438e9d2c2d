"""The fast paths against the full migration, over a tree of real code.

    python benchmarks/fast_paths.py TREE [--target-jax T]

Runs ``hijax-migrate --check --output-format json`` over TREE twice, each in a
process of its own: as shipped, and with every fast path off (each file a
candidate of the pre-filter, triage sending each to the migration, every rule
asked whatever words the file names). The two reports must be the same: a file
a fast path passes over, or a rule it leaves unasked, is one the full migration
leaves byte for byte and silently (but for a file too large to migrate, which
the pre-filter reads only where it names a word). Prints the rows that differ
and both times; exit 1 if any differ. The second run parses every file with
libcst (jax's own tree: about a minute).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run in the child: the tool, its fast paths switched off first where asked.
CHILD = """
import sys
sys.path.insert(0, {codemods!r})
if {forced!r}:
    from hijax_migrate.engine import triage
    from hijax_migrate.rules.base import Rule
    from hijax_migrate.tree import scans

    scans.Scans.is_candidate = lambda self, path, words: True
    scans.Scans.answered = lambda self, path, words: True
    triage.triage_of = lambda code, path, options, project, module="": (None, None)
    Rule.needed = lambda rule, *args: True
from hijax_migrate.cli import main
sys.exit(main({argv!r}))
"""


def report(tree: Path, target: list[str], forced: bool) -> tuple[dict, float]:
    argv = ["--check", "--no-cache", "-j", "1", "--output-format", "json", *target, "."]
    code = CHILD.format(codemods=str(ROOT / "codemods"), forced=forced, argv=argv)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1, 3):
        sys.exit(f"the {'forced' if forced else 'shipped'} run failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout), time.perf_counter() - start


def rows(found: dict) -> set[str]:
    """Each change, warning and error, one JSON line each; the summary's counts. A file too
    large to migrate is left out: the pre-filter reads one only where it names a word."""
    big = [item for item in found["errors"] if item["message"].startswith("too large to")]
    found = {**found, "errors": [item for item in found["errors"] if item not in big]}
    found["summary"] = {**found["summary"], "files_failed": found["summary"]["files_failed"] - len(big)}
    listed = {json.dumps(item, sort_keys=True) for key in ("changes", "warnings", "errors") for item in found[key]}
    return listed | {json.dumps(found["summary"], sort_keys=True)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--target-jax", default=None)
    args = parser.parse_args()
    target = ["--target-jax", args.target_jax] if args.target_jax else []
    shipped, fast = report(args.tree, target, forced=False)
    full, slow = report(args.tree, target, forced=True)
    only_fast, only_full = sorted(rows(shipped) - rows(full)), sorted(rows(full) - rows(shipped))
    for label, found in (("as shipped only", only_fast), ("with the fast paths off only", only_full)):
        for row in found:
            print(f"{label}: {row}")
    files = shipped["summary"].get("files_scanned")
    print(
        f"{args.tree}: {files} files; shipped {fast:.1f} s, fast paths off {slow:.1f} s; rows that differ: "
        f"{len(only_fast) + len(only_full)}"
    )
    return 1 if only_fast or only_full else 0


if __name__ == "__main__":
    sys.exit(main())
