"""How often the tool refuses, and whether it is ever wrong, on generated programs.

    python benchmarks/refusals.py [--programs 100] [--seed 0] [--targets 0.10,0.12]
                                  [--strategies auto,accum] [--show refused|wrong|unchecked] [--by-form]
                                  [--reference]

Each program (``program_trees.draw_tree``) is migrated in place, in a copy
of its own, under each strategy and target; then every program the tool did
not refuse runs under that jax release (0.10 here, 0.12 in the interpreter
named by ``HIJAX_PY312``): its gradient under ``grad``, ``jit`` and ``vmap``
(and ``grad`` of ``vmap`` where the primitive batches), and its value under
``jit`` with a result dropped (jax 0.12 calls the primitive's ``dce``), each
compared with the one the program states. A program is:

- **refused**: the tool left an error (a finding of severity ``error``, or a
  file it could not process): the user must act, nothing is wrong;
- **wrong**: a file the tool must leave alone changed (a look-alike), or a
  statement it refused (where an error finding points), or no error, yet the migrated program raises or its
  result differs: the one result the tool must never give;
- **correct**: no error, and the program's gradients and value;
- **n/a**: the program needs a newer jax than the target (logs: 0.11.1).

With ``--reference`` the programs are migrated by hand
(``program_reference.py``) instead: every one must come out correct, or the
generator states a wrong result.

Prints one row per strategy and target, and with ``--by-form`` how many
programs holding each drawn form were refused or wrong; exit 1 if any
program is wrong.
"""

from __future__ import annotations

import argparse
import ast
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

import program_reference  # noqa: E402 (found through the path set above)
import program_trees  # noqa: E402

PROBE = r'''
import json, sys
import numpy as np
import jax
import jax.numpy as jnp


def close(got, expected):  # a batched gradient is compared row by row: each row is the program's
    return len(got) == len(expected) and all(np.allclose(np.asarray(g), e) for g, e in zip(got, expected))


def checks(main):
    """Each check's name and thunk: grad, jit, vmap of grad, jit's dce of a dropped result, grad of vmap."""
    grad = jax.grad(main.f, argnums=main.ARGNUMS)
    batch = [jnp.stack([a, 2 * a]) for a in main.ARGS]
    yield "grad", lambda: close(grad(*main.ARGS), main.EXPECTED)
    yield "jit", lambda: close(jax.jit(grad)(*main.ARGS), main.EXPECTED)
    yield "vmap", lambda: close(jax.vmap(grad)(*batch), main.EXPECTED)
    yield "value", lambda: bool(np.allclose(jax.jit(main.peek)(*main.ARGS), main.VALUE))
    if main.BATCHED:
        of_vmap = jax.grad(lambda *a: jnp.sum(jax.vmap(main.f)(*a)), argnums=main.ARGNUMS)
        yield "grad_of_vmap", lambda: close(of_vmap(*batch), main.EXPECTED)
        yield "jit_grad_of_vmap", lambda: close(jax.jit(of_vmap)(*batch), main.EXPECTED)


for arg in sys.argv[1:]:
    pkg, folder = arg.split("=", 1)
    sys.path.insert(0, folder)  # each program is a project of its own; package names differ
    failed = None
    try:
        main = __import__(f"{pkg}.main", fromlist=["f"])
        for name, check in checks(main):
            try:
                if not check():
                    failed = f"{name}: gradient differs from {main.EXPECTED}"
            except Exception as error:
                failed = f"{name}: {type(error).__name__}: {error}"[:300]
            if failed:
                break
    except Exception as error:
        failed = f"import: {type(error).__name__}: {error}"[:300]
    print(json.dumps({"pkg": pkg, "ok": failed is None, "got": failed or ""}))
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
        code = main(
            [
                "--in-place",
                "--no-cache",
                "--jobs",
                "1",
                "--target-jax",
                target,
                "--strategy",
                strategy,
                "--output-format",
                "json",
                "-q",
                str(folder),
            ]
        )
    report = json.loads(out.getvalue())
    report["exit"] = code
    return report


def error_findings(report: dict) -> list[dict]:
    return [w for w in report["warnings"] if w["severity"] == "error"] + report["errors"]


def refused_statement(text: str, line: int) -> str | None:
    """The source of the statement an error finding points at (the rule it refused), which must come out
    byte for byte; None for a class statement or a line no statement starts at (other rules may rename
    a base on the line of a class whose rule was refused)."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.stmt) and node.lineno == line and not isinstance(node, ast.ClassDef):
            return ast.get_source_segment(text, node, padded=True)
    return None


def left_alone(folder: Path, tree: program_trees.Tree, report: dict) -> str | None:
    """What the run changed that it must not have: a look-alike file, or a statement it refused."""
    for rel in tree.fixed:
        if (folder / rel).read_text() != tree.files[rel]:
            return f"changed {rel}, which must stay byte for byte"
    for finding in error_findings(report):
        path = Path(finding.get("file") or "")
        rel = (path.relative_to(folder) if path.is_absolute() else path).as_posix()
        kept = (
            refused_statement(tree.files[rel], finding["line"]) if rel in tree.files and finding.get("line") else None
        )
        if kept is not None and kept not in (folder / rel).read_text():
            return f"changed {rel}:{finding['line']}, a statement it refused"
    return None


def migrate_tree(folder: Path, tree: program_trees.Tree, target: str, strategy: str) -> dict:
    write_tree(folder, tree)  # a project of its own: the tool's tree is that folder alone
    return migrate(folder, target, strategy)


def run_one(folder: Path, tree: program_trees.Tree, target: str, strategy: str) -> tuple[str, str] | None:
    """A verdict decided without jax (refused, or wrong for a change it must not make), else None."""
    report = migrate_tree(folder, tree, target, strategy)
    if changed := left_alone(folder, tree, report):
        return "wrong", changed
    errors = error_findings(report)
    return ("refused", errors[0]["message"]) if errors else None


def probe(python: str, folders: dict[str, Path]) -> dict[str, dict]:
    if not folders:
        return {}
    done = subprocess.run(
        [python, "-c", PROBE, *(f"{pkg}={folder}" for pkg, folder in folders.items())],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    results = {json.loads(line)["pkg"]: json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")}
    missing = [pkg for pkg in folders if pkg not in results]
    if missing:  # the probe died: every program it did not report counts as wrong, loudly
        print(f"probe under {python} did not report {len(missing)} programs:\n{done.stderr[-2000:]}", file=sys.stderr)
        results |= {pkg: {"pkg": pkg, "ok": False, "got": "probe crashed"} for pkg in missing}
    return results


def interpreter(target: str) -> str | None:
    return sys.executable if target.startswith("0.10") else os.environ.get("HIJAX_PY312")


def by_hand(folder: Path, tree: program_trees.Tree, target: str, strategy: str) -> None:
    """The reference migration in place of the tool's: a program it leaves wrong is the generator's error."""
    del strategy
    write_tree(folder, program_reference.migrated(tree, target))


def evaluate(
    trees: dict[str, program_trees.Tree], target: str, strategy: str, work: Path, run=run_one
) -> dict[str, tuple]:
    """pkg -> (verdict, detail) for every program under one target and strategy."""
    root = work / f"{target}-{strategy}"
    verdicts, runnable = {}, {}
    for pkg, tree in trees.items():
        if program_trees.newer(tree.since, target):
            verdicts[pkg] = ("n/a", f"valid from jax {tree.since} only")
        elif verdict := run(root / pkg, tree, target, strategy):
            verdicts[pkg] = verdict
        else:
            runnable[pkg] = root / pkg / tree.root
    python = interpreter(target)
    if python is None:
        return verdicts | {pkg: ("unchecked", "no interpreter for this jax (HIJAX_PY312)") for pkg in runnable}
    for pkg, result in probe(python, runnable).items():
        verdicts[pkg] = ("correct", "") if result["ok"] else ("wrong", result["got"])
    return verdicts


def by_form(trees: dict[str, program_trees.Tree], verdicts: dict[str, tuple]) -> list[str]:
    """Per drawn form: programs holding it, and how many of them were refused or wrong."""
    rows = []
    for form in program_trees.FORMS:
        holders = [pkg for pkg, tree in trees.items() if form in tree.forms]
        counts = Counter(verdicts[pkg][0] for pkg in holders)
        if counts["refused"] or counts["wrong"]:
            rows.append(f"    {form:<34} {len(holders):>5} {counts['refused']:>8} {counts['wrong']:>6}")
    return [f"    {'form':<34} {'progs':>5} {'refused':>8} {'wrong':>6}", *rows] if rows else []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", default="0.10,0.12")
    parser.add_argument("--strategies", default="auto,accum")
    parser.add_argument("--show", choices=["refused", "wrong", "unchecked"], action="append", default=[])
    parser.add_argument("--by-form", action="store_true", help="count refused and wrong programs per drawn form")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="check the generator: migrate by hand (program_reference.py), not with the tool",
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    trees = {f"p{i:04d}": program_trees.draw_tree(rng.choice, f"p{i:04d}") for i in range(args.programs)}
    any_wrong = False
    print(
        f"{'strategy':<9} {'target':<7} {'programs':>8} {'correct':>8} {'refused':>8} {'wrong':>6} "
        f"{'unchecked':>9} {'n/a':>5}"
    )
    with tempfile.TemporaryDirectory() as work:
        for target in args.targets.split(","):
            for strategy in args.strategies.split(","):
                verdicts = evaluate(trees, target, strategy, Path(work), by_hand if args.reference else run_one)
                counts = Counter(verdict for verdict, _ in verdicts.values())
                any_wrong |= counts["wrong"] > 0
                print(
                    f"{strategy:<9} {target:<7} {len(trees):>8} {counts['correct']:>8} {counts['refused']:>8} "
                    f"{counts['wrong']:>6} {counts['unchecked']:>9} {counts['n/a']:>5}",
                    flush=True,
                )
                for pkg, (verdict, detail) in sorted(verdicts.items()):
                    if verdict in args.show:
                        print(f"  {verdict} {pkg} {' '.join(trees[pkg].forms)}: {' '.join(detail.split())}")
                if args.by_form:
                    print("\n".join(by_form(trees, verdicts)), flush=True)
    return 1 if any_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
