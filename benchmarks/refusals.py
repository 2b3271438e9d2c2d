"""How often the tool refuses, and whether it is ever wrong, on generated programs.

    python benchmarks/refusals.py [--programs 100] [--seed 0] [--targets 0.10,0.12]
                                  [--strategies auto,accum] [--show refused|wrong|silent|unchecked]
                                  [--by-form] [--reference]

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
  statement it refused (where an error finding points), or no error, yet the
  migrated program raises or its result differs: the one result the tool
  must never give;
- **silent**: wrong, and worse: the tool changed nothing, reported no error
  and ``--check`` passes on the program, which fails under the target jax;
- **correct**: no error, and the program's gradients and value;
- **n/a**: the program needs a newer jax (logs: 0.11.1) or Python than the target.

Beside each of the tool's rows, the **naive** rename (``sed``: the one-line
sed of issue 40, every ``def vjp_bwd(`` and ``.vjp_bwd(`` gets ``_retval``)
is run over the same programs and scored the same way (it never refuses;
silent: it changed nothing and the program fails), and so is the same sed
sparing the look-alikes (``sed-la``: a sed that breaks a look-alike is wrong,
and most drawn programs hold one). Then every program ``sed-la`` gets right
and the tool does not is listed, with the tool's message.

With ``--reference`` the programs are migrated by hand
(``program_reference.py``) instead: every one must come out correct, or the
generator states a wrong result.

Prints one row per strategy and target, and with ``--by-form`` how many
programs holding each drawn form were refused, wrong or silent (and how many
the naive rename got right); exit 1 if any program is wrong or silent.
``namespaces.py`` runs the same table over the data model's generator.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import random
import re
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


def migrate(folder: Path, target: str, strategy: str, mode: str = "--in-place") -> dict:
    """The tool's JSON report for a run (in place, or ``--check``) over one program's folder, in this process."""
    from hijax_migrate.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(
            [
                mode,
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
    try:
        tree = ast.parse(text)
    except SyntaxError:  # newer syntax than this Python reads (PEP 695 at 3.11): the line itself must stay
        source = text.splitlines(keepends=True)[line - 1]
        return None if source.lstrip().startswith("class ") else source
    for node in ast.walk(tree):
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
        if kept is not None and not any(form in (folder / rel).read_text() for form in as_renamed(kept)):
            return f"changed {rel}:{finding['line']}, a statement it refused"
    return None


# The module-wide base renames (HJX006, then HJX003), which reach a refused statement as they reach
# the line of a refused class: ``type("Op", (VJPHiPrimitive,), {...})`` is a class statement too.
_BASE_RENAMES = (("NewstyleHiPrimitive", "VJPHiPrimitive"), ("VJPHiPrimitive", "HiPrim"))


def as_renamed(statement: str) -> list[str]:
    """``statement``, then as each prefix of the base renames leaves it: what the tool may write of it."""
    forms = [statement]
    for old, new in _BASE_RENAMES:
        forms.append(re.sub(rf"\b{old}\b", new, forms[-1]))
    return forms


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


def check_passes(folder: Path, target: str, strategy: str) -> bool:
    """``--check`` exits 0 on the program as it stands: the tool says there is nothing left to fix."""
    return migrate(folder, target, strategy, "--check")["exit"] == 0


# The naive rename of issue 40, a one-line sed: s/def vjp_bwd(/def vjp_bwd_retval(/; s/.vjp_bwd(/.vjp_bwd_retval(/
SED = [(re.compile(r"def vjp_bwd\("), "def vjp_bwd_retval("), (re.compile(r"\.vjp_bwd\("), ".vjp_bwd_retval(")]


def sed(text: str) -> str:
    for pattern, replacement in SED:
        text = pattern.sub(replacement, text)
    return text


def naive_rename(folder: Path, tree: program_trees.Tree, target: str, strategy: str) -> tuple[str, str] | None:
    """The sed over every Python file of the program, in place of the tool: wrong if it changed a look-alike.
    With ``strategy`` "sed-la" it spares the look-alikes (``tree.fixed``), as a user who knew them would."""
    del target
    write_tree(folder, tree)
    spared = {folder / rel for rel in tree.fixed} if strategy == "sed-la" else set()
    for path in set(folder.rglob("*.py")) - spared:
        path.write_text(sed(path.read_text()))
    changed = left_alone(folder, tree, {"warnings": [], "errors": []})
    return ("wrong", changed) if changed else None


def unchanged(folder: Path, tree: program_trees.Tree) -> bool:
    return all((folder / rel).read_text() == text for rel, text in tree.files.items())


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


def not_applicable(tree: program_trees.Tree, target: str) -> str | None:
    if program_trees.newer(tree.since, target):
        return f"valid from jax {tree.since} only"
    if target.startswith("0.10") and getattr(tree, "python", "3.11") != "3.11":
        return f"Python {tree.python} syntax; jax 0.10 runs on Python 3.11"
    return None


def evaluate(
    trees: dict[str, program_trees.Tree], target: str, strategy: str, work: Path, run=run_one, silent_if=None
) -> dict[str, tuple]:
    """pkg -> (verdict, detail) for every program under one target and strategy. A program that fails
    with every file as it was is silent where ``silent_if(folder, target, strategy)`` holds (or always)."""
    root = work / f"{target}-{strategy}"
    verdicts, runnable = {}, {}
    for pkg, tree in trees.items():
        if why := not_applicable(tree, target):
            verdicts[pkg] = ("n/a", why)
        elif verdict := run(root / pkg, tree, target, strategy):
            verdicts[pkg] = verdict
        else:
            runnable[pkg] = root / pkg / tree.root
    python = interpreter(target)
    if python is None:
        return verdicts | {pkg: ("unchecked", "no interpreter for this jax (HIJAX_PY312)") for pkg in runnable}
    for pkg, result in probe(python, runnable).items():
        folder, tree = root / pkg, trees[pkg]
        quiet = unchanged(folder, tree) and (silent_if is None or silent_if(folder, target, strategy))
        verdicts[pkg] = ("correct", "") if result["ok"] else ("silent" if quiet else "wrong", result["got"])
    return verdicts


VERDICTS = ["correct", "refused", "wrong", "silent", "unchecked", "n/a"]
HEADER = f"{'by':<6} {'strategy':<9} {'target':<7} {'programs':>8} " + " ".join(f"{v:>9}" for v in VERDICTS)


def row(by: str, strategy: str, target: str, verdicts: dict[str, tuple]) -> str:
    counts = Counter(verdict for verdict, _ in verdicts.values())
    return f"{by:<6} {strategy:<9} {target:<7} {len(verdicts):>8} " + " ".join(f"{counts[v]:>9}" for v in VERDICTS)


def by_form(trees: dict, verdicts: dict[str, tuple], forms: list[str], naive: dict[str, tuple]) -> list[str]:
    """Per drawn form: programs holding it, how many the tool refused, got wrong, left silent; how many
    the naive rename got right."""
    rows = []
    for form in forms:
        holders = [pkg for pkg, tree in trees.items() if form in tree.forms]
        counts = Counter(verdicts[pkg][0] for pkg in holders)
        naive_ok = sum(naive[pkg][0] == "correct" for pkg in holders)
        if counts["refused"] or counts["wrong"] or counts["silent"]:
            rows.append(
                f"    {form:<34} {len(holders):>5} {counts['refused']:>8} {counts['wrong']:>6} {counts['silent']:>6} "
                f"{counts['correct']:>6} {naive_ok:>9}"
            )
    head = f"    {'form':<34} {'progs':>5} {'refused':>8} {'wrong':>6} {'silent':>6} {'ok':>6} {'sed-la ok':>9}"
    return [head, *rows] if rows else []


def shape(message: str) -> str:
    """A refusal's message with its particulars (lines, paths, numbers) blanked, to group alike ones."""
    return re.sub(r"\d+", "N", re.sub(r"\S*/\S*", "PATH", " ".join(message.split())))[:160]


def refusal_groups(verdicts: dict[str, tuple]) -> list[str]:
    groups = Counter(shape(detail) for verdict, detail in verdicts.values() if verdict == "refused")
    return [f"    {count:>4} x {message}" for message, count in groups.most_common()]


def lost(trees: dict, verdicts: dict[str, tuple], naive: dict[str, tuple]) -> list[str]:
    """The programs the naive rename gets right and the tool does not, with the tool's word on each."""
    return [
        f"    sed-la right, tool {verdict}: {pkg} {' '.join(trees[pkg].forms)}: {' '.join(detail.split())[:300]}"
        for pkg, (verdict, detail) in sorted(verdicts.items())
        if naive[pkg][0] == "correct" and verdict in ("refused", "wrong", "silent")
    ]


def table(trees: dict, forms: list[str], args, hand) -> int:
    """The whole measurement over drawn programs: 1 if the tool (or the reference) was wrong or silent.
    Beside each row, the naive rename (``sed``), and the same sparing the look-alikes (``sed-la``): the
    programs that one gets right and the tool does not are listed."""
    bad, runs = False, [(t, s) for t in args.targets.split(",") for s in args.strategies.split(",")]
    print(HEADER)
    with tempfile.TemporaryDirectory() as work:
        naive = {}
        for target, strategy in runs:
            if args.reference:
                verdicts = evaluate(trees, target, strategy, Path(work), hand)
            else:
                verdicts = evaluate(trees, target, strategy, Path(work), run_one, check_passes)
            for how in ("sed", "sed-la"):
                if (target, how) not in naive:
                    naive[target, how] = evaluate(trees, target, how, Path(work), naive_rename)
            bad |= any(verdict in ("wrong", "silent") for verdict, _ in verdicts.values())
            print(row("ref" if args.reference else "tool", strategy, target, verdicts))
            print(row("sed", "-", target, naive[target, "sed"]))
            print(row("sed-la", "-", target, naive[target, "sed-la"]), flush=True)
            for pkg, (verdict, detail) in sorted(verdicts.items()):
                if verdict in args.show:
                    print(f"  {verdict} {pkg} {' '.join(trees[pkg].forms)}: {' '.join(detail.split())}")
            for line in [*refusal_groups(verdicts), *lost(trees, verdicts, naive[target, "sed-la"])]:
                print(line)
            for line in by_form(trees, verdicts, forms, naive[target, "sed-la"]) if args.by_form else []:
                print(line)
    return 1 if bad else 0


def parser(doc: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", default="0.10,0.12")
    parser.add_argument("--strategies", default="auto,accum")
    parser.add_argument("--show", choices=["refused", "wrong", "silent", "unchecked"], action="append", default=[])
    parser.add_argument("--by-form", action="store_true", help="count refused, wrong, silent programs per form")
    parser.add_argument("--reference", action="store_true", help="check the generator: migrate by hand, not the tool")
    return parser


def main(argv=None) -> int:
    args = parser(__doc__).parse_args(argv)
    rng = random.Random(args.seed)
    trees = {f"p{i:04d}": program_trees.draw_tree(rng.choice, f"p{i:04d}") for i in range(args.programs)}
    return table(trees, program_trees.FORMS, args, by_hand)


if __name__ == "__main__":
    sys.exit(main())
