"""How often the tool refuses, and whether it is ever wrong, on generated programs.

    python benchmarks/refusals.py [--programs 100] [--seed 0] [--targets 0.10,0.12]
                                  [--strategies auto,accum] [--show refused|wrong]

Each program (``program_trees.draw_tree``) is migrated in place, in a copy
of its own, under each strategy and target; then every program the tool did
not refuse runs under that jax release (0.10 here, 0.12 in the interpreter
named by ``HIJAX_PY312``), and its gradient, with and without ``jit``, is
compared with the one the program states. A program is:

- **refused**: the tool left an error (a finding of severity ``error``, or a
  file it could not process): the user must act, nothing is wrong;
- **wrong**: no error, yet the migrated program raises or its gradient differs:
  the one result the tool must never give;
- **correct**: no error, and the gradient is the program's.

Prints one row per strategy and target; exit 1 if any program is wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import program_trees  # noqa: E402

PROBE = r'''
import json, sys
import numpy as np
import jax
for folder in sys.argv[1:]:
    pkg = folder.rsplit("/", 1)[-1]
    sys.path.insert(0, folder)  # each program is a project of its own; package names differ
    try:
        main = __import__(f"{pkg}.main", fromlist=["f"])
        grads = jax.grad(main.f, argnums=main.ARGNUMS)(*main.ARGS)
        jitted = jax.jit(jax.grad(main.f, argnums=main.ARGNUMS))(*main.ARGS)
        ok = all(np.allclose(np.asarray(g), e) for got in (grads, jitted) for g, e in zip(got, main.EXPECTED))
        print(json.dumps({"pkg": pkg, "ok": bool(ok), "got": str([np.asarray(g).tolist() for g in grads])}))
    except Exception as error:
        print(json.dumps({"pkg": pkg, "ok": False, "got": f"{type(error).__name__}: {error}"[:300]}))
'''


def write_tree(root: Path, tree: program_trees.Tree) -> None:
    for rel, text in tree.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def migrate(folder: Path, target: str, strategy: str) -> dict:
    """The tool's JSON report for an in-place run over one program's folder, in this process."""
    from hijax_migrate.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["--in-place", "--no-cache", "--jobs", "1", "--target-jax", target, "--strategy", strategy,
                     "--output-format", "json", "-q", str(folder)])
    report = json.loads(out.getvalue())
    report["exit"] = code
    return report


def refused(report: dict) -> bool:
    return bool(report["errors"]) or any(w["severity"] == "error" for w in report["warnings"])


def probe(python: str, root: Path, pkgs: list[str]) -> dict[str, dict]:
    if not pkgs:
        return {}
    folders = [str(root / pkg) for pkg in pkgs]
    done = subprocess.run([python, "-c", PROBE, *folders], capture_output=True, text=True, timeout=1800)
    results = {json.loads(line)["pkg"]: json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")}
    missing = [pkg for pkg in pkgs if pkg not in results]
    if missing:  # the probe died: every program it did not report counts as wrong, loudly
        print(f"probe under {python} did not report {len(missing)} programs:\n{done.stderr[-2000:]}", file=sys.stderr)
        results |= {pkg: {"pkg": pkg, "ok": False, "got": "probe crashed"} for pkg in missing}
    return results


def interpreter(target: str) -> str | None:
    return sys.executable if target.startswith("0.10") else os.environ.get("HIJAX_PY312")


def evaluate(trees: dict[str, program_trees.Tree], target: str, strategy: str, work: Path) -> dict[str, tuple]:
    """pkg -> (verdict, detail) for every program under one target and strategy."""
    root = work / f"{target}-{strategy}"
    verdicts, runnable = {}, []
    for pkg, tree in trees.items():
        if program_trees.newer(tree.since, target):
            verdicts[pkg] = ("n/a", f"valid from jax {tree.since} only")
            continue
        write_tree(root / pkg, tree)  # a project of its own: the tool's tree is that folder alone
        report = migrate(root / pkg, target, strategy)
        if refused(report):
            messages = [w["message"] for w in report["warnings"] if w["severity"] == "error"]
            verdicts[pkg] = ("refused", (messages + [e["message"] for e in report["errors"]])[0])
        else:
            runnable.append(pkg)
    python = interpreter(target)
    if python is None:
        return verdicts | {pkg: ("unchecked", "no interpreter for this jax (HIJAX_PY312)") for pkg in runnable}
    for pkg, result in probe(python, root, runnable).items():
        verdicts[pkg] = ("correct", "") if result["ok"] else ("wrong", result["got"])
    return verdicts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", default="0.10,0.12")
    parser.add_argument("--strategies", default="auto,accum")
    parser.add_argument("--show", choices=["refused", "wrong", "unchecked"], action="append", default=[])
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    trees = {f"p{i:04d}": program_trees.draw_tree(rng.choice, f"p{i:04d}") for i in range(args.programs)}
    any_wrong = False
    print(f"{'strategy':<9} {'target':<7} {'programs':>8} {'correct':>8} {'refused':>8} {'wrong':>6} {'unchecked':>9}")
    with tempfile.TemporaryDirectory() as work:
        for target in args.targets.split(","):
            for strategy in args.strategies.split(","):
                verdicts = evaluate(trees, target, strategy, Path(work))
                counts = Counter(verdict for verdict, _ in verdicts.values())
                any_wrong |= counts["wrong"] > 0
                print(f"{strategy:<9} {target:<7} {len(trees):>8} {counts['correct']:>8} {counts['refused']:>8} "
                      f"{counts['wrong']:>6} {counts['unchecked']:>9}", flush=True)
                for pkg, (verdict, detail) in sorted(verdicts.items()):
                    if verdict in args.show:
                        print(f"  {verdict} {pkg} {' '.join(trees[pkg].forms)}: {detail}")
    return 1 if any_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
