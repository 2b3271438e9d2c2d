"""The refusal table of issue 40 over the data model's generator: programs
whose rules are bound, named and reached in the forms of the language
reference (``program_namespaces.draw_namespace``).

    python benchmarks/namespaces.py [--programs 100] [--seed 0] [--targets 0.10,0.12]
                                    [--strategies auto,accum] [--show refused|wrong|silent|unchecked]
                                    [--by-form] [--reference] [--family bindings|lookups]

Each program is migrated under each strategy and target and run under that
jax, as ``refusals.py`` does (0.12: the interpreter named by
``HIJAX_PY312``), and scored correct, refused (grouped by message), wrong,
silent (unchanged, no error, ``--check`` passes, and it fails under the
target) or n/a (PEP 695 syntax at jax 0.10, whose Python is 3.11); the naive
rename is scored beside the tool, and the programs it gets right that the
tool does not are listed. ``--reference`` runs each program as written for
the target (its stated gradients checked, not the tool). Exit 1 if any
program is wrong or silent.

With ``--unsafe`` (issue 43) the table is of the unsafe fixes instead: each
program the tool refuses is migrated again in a copy of its own with
``--in-place --unsafe-fixes``; it has a fix where that run leaves no error,
and the fix is right where the generator's own gradient check passes under
the target's jax (``refusals.probe``), wrong where it fails. The programs
whose fix is wrong are listed, and the refusals left without one, grouped.
With ``--verify`` too, each program with a fix is run through
``--unsafe-fixes --verify`` with its own gradient check as CMD (under the
target's jax on both sides): kept or dropped, against right or wrong. A wrong
fix kept is counted as the table's failure.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import program_namespaces  # noqa: E402 (found through the path set above)
import refusals  # noqa: E402


def by_hand(folder: Path, tree: program_namespaces.Namespace, target: str, strategy: str) -> None:
    """The program as written for the target, in place of the tool's migration."""
    del strategy
    refusals.write_tree(folder, program_namespaces.Namespace(tree.references[target[:4]]))


def draw(programs: int, seed: int, family: str = "bindings") -> dict[str, program_namespaces.Namespace]:
    """``programs`` drawn from ``seed``; ``family`` "lookups": each rule bound in one of the second
    family's forms (``program_namespaces.LOOKED_UP``)."""
    rng, forms = random.Random(seed), program_namespaces.LOOKED_UP if family == "lookups" else None
    return {f"n{i:04d}": program_namespaces.draw_namespace(rng.choice, f"n{i:04d}", forms) for i in range(programs)}


def with_unsafe_fixes(folder: Path, target: str, strategy: str) -> dict:
    """The tool's JSON report for ``--in-place --unsafe-fixes`` over one program's folder, in this process."""
    from hijax_migrate.cli import main

    out = io.StringIO()
    flags = ["--in-place", "--unsafe-fixes", "--no-cache", "--jobs", "1", "--target-jax", target]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main([*flags, "--strategy", strategy, "--output-format", "json", "-q", str(folder)])
    return json.loads(out.getvalue())


def unsafe_run(folder: Path, tree: program_namespaces.Namespace, target: str, strategy: str) -> tuple | None:
    """A refused program migrated with its unsafe fixes: ("no fix", why) where an error is left,
    else None (the probe then says whether the fix is right)."""
    refusals.write_tree(folder, tree)
    report = with_unsafe_fixes(folder, target, strategy)
    if changed := refusals.left_alone(folder, tree, report):
        return "wrong", changed
    errors = refusals.error_findings(report)
    return ("no fix", errors[0]["message"]) if errors else None


# A program's gradient check as a command of its own, for ``--verify``: exit 0 where it passes.
CHECK = """import json, os, subprocess, sys
done = subprocess.run([sys.executable, "probe.py", f"{pkg}={{os.path.join(os.getcwd(), {root!r})}}"],
                      capture_output=True, text=True)
sys.exit(0 if any(json.loads(line)["ok"] for line in done.stdout.splitlines() if line.startswith("{{")) else 1)
"""


def verified(folder: Path, pkg: str, tree: program_namespaces.Namespace, target: str, strategy: str) -> str:
    """A refused program run through ``--unsafe-fixes --verify`` with its own gradient check as CMD:
    "kept" where every group of its fixes is kept, else "dropped"."""
    from hijax_migrate.cli import main

    refusals.write_tree(folder, tree)
    (folder / "probe.py").write_text(refusals.PROBE)
    (folder / "check.py").write_text(CHECK.format(pkg=pkg, root=tree.root or "."))
    command = f"{refusals.interpreter(target)} check.py"
    flags = ["--unsafe-fixes", "--no-cache", "--target-jax", target, "--strategy", strategy, "--verify", command]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main([*flags, "--output-format", "json", "-q", str(folder)])
    groups = (json.loads(out.getvalue())["verify"] or {}).get("unsafe_fixes") or []
    return "kept" if groups and all(g["verdict"].startswith("kept") for g in groups) else "dropped"


def verify_row(fixed: dict[str, tuple], kept: dict[str, str]) -> str:
    """kept right, kept wrong (must be 0), dropped right (a needless refusal), dropped wrong."""
    pairs = Counter((kept[pkg], fixed[pkg][0]) for pkg in kept)
    return (
        f"  --verify with the gradient check: kept {pairs['kept', 'correct']} right, {pairs['kept', 'wrong']} wrong; "
        f"dropped {pairs['dropped', 'correct']} right, {pairs['dropped', 'wrong']} wrong"
    )


UNSAFE_HEADER = (
    f"{'strategy':<9} {'target':<7} {'programs':>8} {'refused':>8} {'with fix':>9} {'right':>6} {'wrong':>6} "
    f"{'right/refused':>13}"
)


def unsafe_row(strategy: str, target: str, programs: int, fixed: dict[str, tuple]) -> str:
    counts = Counter(verdict for verdict, _ in fixed.values())
    with_fix = len(fixed) - counts["no fix"]
    unchecked = f" (unchecked {counts['unchecked']})" if counts["unchecked"] else ""
    return (
        f"{strategy:<9} {target:<7} {programs:>8} {len(fixed):>8} {with_fix:>9} "
        f"{counts['correct']:>6} {counts['wrong']:>6} {counts['correct'] / max(len(fixed), 1):>13.0%}{unchecked}"
    )


def unsafe_table(trees: dict, args) -> int:
    """The unsafe fixes' table: 1 if any fix is wrong (written only on request, but it should be right)."""
    bad = False
    print(UNSAFE_HEADER)
    with tempfile.TemporaryDirectory() as work:
        for target, strategy in [(t, s) for t in args.targets.split(",") for s in args.strategies.split(",")]:
            safe = refusals.evaluate(trees, target, strategy, Path(work), refusals.run_one, refusals.check_passes)
            refused = {pkg: trees[pkg] for pkg, (verdict, _) in safe.items() if verdict == "refused"}
            fixed = refusals.evaluate(refused, target, strategy, Path(work) / "unsafe", unsafe_run)
            print(unsafe_row(strategy, target, len(trees), fixed), flush=True)
            if args.verify and refusals.interpreter(target):
                checked = {pkg: v for pkg, v in fixed.items() if v[0] in ("correct", "wrong")}
                where = Path(work) / "verify" / f"{target}-{strategy}"
                kept = {pkg: verified(where / pkg, pkg, trees[pkg], target, strategy) for pkg in checked}
                print(verify_row(fixed, kept), flush=True)
                bad |= any(kept[pkg] == "kept" and fixed[pkg][0] == "wrong" for pkg in kept)
            for pkg, (verdict, detail) in sorted(fixed.items()):
                if verdict in ("wrong", *args.show):
                    print(f"  {verdict} fix {pkg} {' '.join(trees[pkg].forms)}: {' '.join(detail.split())[:300]}")
            groups = Counter(refusals.shape(detail) for verdict, detail in fixed.values() if verdict == "no fix")
            for message, count in groups.most_common():
                print(f"    no fix {count:>3} x {message}")
            bad |= any(verdict == "wrong" for verdict, _ in fixed.values())
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = refusals.parser(__doc__)
    parser.add_argument("--unsafe", action="store_true", help="the unsafe fixes' table: refused, with a fix, right")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="with --unsafe: each fix through --unsafe-fixes --verify (its gradient check)",
    )
    parser.add_argument(
        "--family",
        choices=["bindings", "lookups"],
        default="bindings",
        help="lookups: rules in instances' namespaces, a __getattribute__, mixins (program_namespaces.LOOKED_UP)",
    )
    args = parser.parse_args(argv)
    trees = draw(args.programs, args.seed, args.family)
    if args.unsafe:
        return unsafe_table(trees, args)
    forms = program_namespaces.FORMS if args.family == "bindings" else program_namespaces.LOOKED_UP_FORMS
    return refusals.table(trees, forms, args, by_hand)


if __name__ == "__main__":
    sys.exit(main())
