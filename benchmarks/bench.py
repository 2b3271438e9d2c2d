"""Benchmark: ``hijax-migrate --check`` against its baselines, side by side.

    python benchmarks/bench.py [--trees synthetic,jax-0.10.2,jax-0.12.0.1]
                               [--files 3000] [--repeat 1] [--tree PATH --target-jax V]

Times, in one run and on the same machine, for each tree:

- ``hijax-migrate --check`` cold (an empty cache) and warm (the cache the
  cold run left);
- the naive approach: every file parsed with libcst on all cores;
- ``grep -rl`` for the tool's pre-filter pattern: the floor;
- on jax's wheels, the floor of a cold check by the tool's design: its walk,
  pre-filter and workers with triage only ``ast``'s parse of each candidate
  (``floor.py --parse-only``; no goal: it says how much of the gap to the
  cold goal any triage that parses its candidates could close), and with
  triage the parse and the kinds of each candidate's classes, whose base
  modules it reads (``--resolve-only``: the floor of any triage that decides
  a file by what its classes are);

with the peak memory of each (the largest process of the command, workers
included), and the ratios the goals are stated in. The trees: a synthetic
repository (``synth.py``), and jax's own sources from the wheels of jax
0.10.2 and 0.12.0.1 (downloaded once with ``pip download --no-deps`` into
the cache folder, then unpacked; no network after that); jax's whole tree at
a recent commit (``JAX_COMMIT``, GitHub's archive of it, fetched once; or
``--jax-tree``), whose tests hold many primitives, with one more row: its
floor (``floor.py``: triage of every file, and one libcst parse with scopes
and positions of each file that needs libcst), goal at most 1.5 times; and
that tree's ``tests/hijax_test.py`` alone (86 kB, 31 primitives), against a
libcst parse (naive) and a parse with scopes and positions (its floor); and
that module at jax-v0.8.1 and jax-v0.10.2 (``--jax-repo``, a git checkout of
jax with its tags) migrated to 0.12, against libcst's parse and code
generation of it, the cost of a rewrite with no analysis (goal at most 2 times). On the synthetic
tree it also times a pre-push hook's run over a 10-file change (after two
earlier pushes, one it blocks and one it lets through, and as a first
push), and ``--check --changed-since`` over it, and checks that ``--check`` lists exactly the files that need changes
(exit 1 if not).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

# The tool, run without the current folder on sys.path: a tree with its own
# typing.py or random.py (jax has both) must not shadow the standard library.
TOOL = [sys.executable, "-c", "import sys; del sys.path[0]; from hijax_migrate.cli import run; run()"]
GREP_PATTERN = r"vjp_\|HiPrim\|hijax\|linearize_from_jvp\|apply_derived_linearization\|transpose_jvp"
JAX_TARGETS = {"0.10.2": "0.10", "0.12.0.1": "0.12"}
GOALS = {"cold": 30.0, "synthetic": 100.0, "warm": 10.0, "pre-push": 0.5, "floor": 1.5, "head": 10.0, "rewrite": 2.0}
# jax's tree at a recent commit (its tests hold many primitives; the wheels hold none), and its release
JAX_COMMIT, JAX_HEAD_TARGET = "cec06d116c05f0d52adfceee3d3b730fdbcb0ce5", "0.11.1"
BIG_MODULE = "tests/hijax_test.py"  # a single big test module full of primitives
# At its own release triage decides it (fixtures' notes, without libcst); at 0.12
# its 31 primitives' base is renamed (37 changes): a big module that needs libcst.
BIG_MODULE_TARGETS = {"big-module": JAX_HEAD_TARGET, "big-module-0.12": "0.12"}
FLOOR = [sys.executable, str(HERE / "floor.py")]
PARSE_FLOOR = "floor: parse candidates"  # the walk, the pre-filter, then only ``ast``'s parse of each candidate
RESOLVE_FLOOR = "floor: decide class kinds"  # and each candidate's classes' kinds (their base modules read)
# jax's big test module at two releases, migrated to 0.12, against libcst's bare
# parse and code generation of it (issue 39): read from a git checkout of jax's
# repository (--jax-repo), at these tags.
REWRITE_TAGS = {"rewrite-0.8.1": "jax-v0.8.1", "rewrite-0.10.2": "jax-v0.10.2"}


def measure(command: list[str], cwd: Path, env: dict | None = None, stdin=None) -> tuple[float, float, str, float]:
    """Wall seconds, peak RSS in MiB, stdout and CPU seconds (user and
    system, its workers included) of one run of ``command`` (which must exit
    0 or 1: grep's and --check's "nothing found"/"found"). CPU time is what a
    busy machine changes least: the ratios are given by both."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, env=env, stdin=stdin)
        # wait4 reports the largest resident set of the child and of every
        # descendant it waited for (the worker processes).
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{' '.join(command[:1] + command[3:])} exited {code}:\n{err.read().decode()[-2000:]}")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read().decode(), usage.ru_utime + usage.ru_stime


def best_of(runs: list[tuple[float, float, str, float]]) -> tuple[float, float, str, float]:
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2], min(r[3] for r in runs)


def with_cache(folder: Path) -> dict:
    return {**installed_env(), "HIJAX_MIGRATE_CACHE_DIR": str(folder)}


def installed_env() -> dict:
    """The environment of a tool as pip installs it: its modules compiled once
    (an editable checkout under PYTHONDONTWRITEBYTECODE, as on some CI
    machines, would compile every module of the tool in every run)."""
    import compileall

    import hijax_migrate

    compileall.compile_dir(Path(hijax_migrate.__file__).parent, quiet=1)
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def time_tree(
    tree: Path, target: str, repeat: int, scratch: Path, parse_floor: bool = False
) -> dict[str, tuple[float, float, str, float]]:
    """``parse_floor``: with the floor of a cold check by any design that parses
    each candidate with ``ast`` first (``floor.py --parse-only``)."""
    check = [*TOOL, "--check", "-q", "--target-jax", target, "."]
    caches = [scratch / f"cache-{tree.name}-{n}" for n in range(repeat)]
    results = {
        "hijax-migrate, cold cache": best_of([measure(check, tree, with_cache(c)) for c in caches]),
        "hijax-migrate, warm cache": best_of([measure(check, tree, with_cache(caches[-1])) for _ in caches]),
        "naive: libcst parse all": best_of(
            [measure([sys.executable, str(HERE / "naive.py"), "."], tree) for _ in caches]
        ),
        "grep -rl (floor)": best_of(
            [measure(["grep", "-rl", "--include=*.py", GREP_PATTERN, "."], tree) for _ in caches]
        ),
    }
    for row, flag in ((PARSE_FLOOR, "--parse-only"), (RESOLVE_FLOOR, "--resolve-only")) if parse_floor else ():
        floor = [*FLOOR, flag, ".", "--target-jax", target]
        results[row] = best_of(
            [measure(floor, tree, with_cache(scratch / f"{flag[2:]}-{tree.name}-{n}")) for n in range(repeat)]
        )
    return results


def time_head(tree: Path, repeat: int, scratch: Path) -> dict[str, tuple[float, float, str, float]]:
    """jax's tree at JAX_COMMIT: the rows of ``time_tree``, and the floor (triage
    of every file, one parse with scopes and positions of each that needs libcst)."""
    results = time_tree(tree, JAX_HEAD_TARGET, repeat, scratch)
    floor = [*FLOOR, "--tree", ".", "--target-jax", JAX_HEAD_TARGET]
    results["floor: triage, parse+metadata"] = best_of(
        [measure(floor, tree, with_cache(scratch / f"floor-{n}")) for n in range(repeat)]
    )
    return results


def time_module(
    tree: Path, repeat: int, scratch: Path, target: str = JAX_HEAD_TARGET
) -> dict[str, tuple[float, float, str, float]]:
    """The single big module alone, in a folder of its own: the tool (no cache), a
    libcst parse (naive), and the floor: a parse with scopes and positions."""
    folder = scratch / f"big-module-{target}"
    folder.mkdir(exist_ok=True)
    (folder / Path(BIG_MODULE).name).write_bytes((tree / BIG_MODULE).read_bytes())
    check = [*TOOL, "--check", "-q", "--no-cache", "--target-jax", target, "."]
    return {
        "hijax-migrate, no cache": best_of([measure(check, folder, installed_env()) for _ in range(repeat)]),
        "naive: libcst parse": best_of(
            [measure([sys.executable, str(HERE / "naive.py"), "."], folder) for _ in range(repeat)]
        ),
        "floor: parse+metadata": best_of([measure([*FLOOR, Path(BIG_MODULE).name], folder) for _ in range(repeat)]),
    }


def time_rewrite(repo: Path, tag: str, repeat: int, scratch: Path) -> dict[str, tuple[float, float, str, float]]:
    """The big module at ``tag``, alone in a folder, migrated to 0.12 (no cache),
    side by side with libcst's parse and code generation of it in one process."""
    folder = scratch / f"rewrite-{tag}"
    folder.mkdir(exist_ok=True)
    text = subprocess.run(
        ["git", f"--git-dir={_git_dir(repo)}", "show", f"{tag}:{BIG_MODULE}"], check=True, capture_output=True
    ).stdout
    (folder / Path(BIG_MODULE).name).write_bytes(text)
    check = [*TOOL, "--check", "-q", "--no-cache", "--target-jax", "0.12", "."]
    bare = [sys.executable, str(HERE / "naive.py"), "--codegen", "."]
    runs = {"hijax-migrate, no cache": [], "libcst parse+codegen": []}
    for _ in range(repeat):  # in turn, so that a drift of the machine's speed touches both
        runs["hijax-migrate, no cache"].append(measure(check, folder, installed_env()))
        runs["libcst parse+codegen"].append(measure(bare, folder))
    return {name: best_of(measured) for name, measured in runs.items()}


def _git_dir(repo: Path) -> Path:
    """A checkout's ``.git``, or a bare repository as it is."""
    return repo / ".git" if (repo / ".git").exists() else repo


def rewrite_ratio(results: dict) -> tuple[list[str], dict[str, bool]]:
    tool, bare = results["hijax-migrate, no cache"], results["libcst parse+codegen"]
    met = {"rewrite": tool[3] / bare[3] <= GOALS["rewrite"]}
    return [
        f"  {tool[3] / bare[3]:.2f}x libcst's parse and code generation by CPU (goal <= {GOALS['rewrite']}x: "
        f"{_ok(met['rewrite'])}; by wall {tool[0] / bare[0]:.2f}x)"
    ], met


def floor_ratio(results: dict, tool_row: str, floor_row: str) -> tuple[list[str], dict[str, bool]]:
    tool, floor = results[tool_row], results[floor_row]
    met = {"floor": tool[0] / floor[0] <= GOALS["floor"]}
    return [
        (
            f"  {tool[0] / floor[0]:.2f}x its floor's time (goal <= {GOALS['floor']}x: {_ok(met['floor'])}; "
            f"by CPU {tool[3] / floor[3]:.2f}x)"
        )
    ], met


def parse_floor_ratio(results: dict) -> list[str]:
    """How far the cold check is above the floors of its design, and each floor's own ratio to naive."""
    cold, naive = results["hijax-migrate, cold cache"], results["naive: libcst parse all"]
    return [
        f"  cold: {cold[0] / floor[0]:.2f}x the floor '{row[7:]}' (by CPU {cold[3] / floor[3]:.2f}x; no goal); "
        f"that floor is {naive[0] / floor[0]:.1f}x faster than naive (by CPU {naive[3] / floor[3]:.1f}x)"
        for row in (PARSE_FLOOR, RESOLVE_FLOOR)
        for floor in [results[row]]
    ]


def table(results: dict[str, tuple[float, float, str, float]]) -> list[str]:
    lines = [f"  {'command':<28}{'wall':>9}{'CPU':>9}{'peak RSS':>12}"]
    lines += [f"  {name:<28}{wall:>8.2f}s{cpu:>8.2f}s{rss:>8.0f} MiB" for name, (wall, rss, _, cpu) in results.items()]
    return lines


def ratios(results: dict, cold_goal: float) -> tuple[list[str], dict[str, bool]]:
    cold, warm = results["hijax-migrate, cold cache"], results["hijax-migrate, warm cache"]
    naive, grep = results["naive: libcst parse all"], results["grep -rl (floor)"]
    met = {"cold": naive[0] / cold[0] >= cold_goal, "warm": warm[0] / grep[0] <= GOALS["warm"]}
    return [
        f"  cold: {naive[0] / cold[0]:.1f}x faster than naive (goal >= {cold_goal:.0f}x: {_ok(met['cold'])}; "
        f"by CPU {naive[3] / cold[3]:.1f}x); warm: {warm[0] / grep[0]:.1f}x grep's time "
        f"(goal <= {GOALS['warm']:.0f}x: {_ok(met['warm'])}; by CPU {warm[3] / max(grep[3], 0.01):.1f}x)"
    ], met


def _ok(met: bool) -> str:
    """A goal's verdict, with the load it was measured at: a busy machine is slower, not the tool."""
    return "met" if met else f"below goal on this machine at load {os.getloadavg()[0]:.1f}"


def jax_head(downloads: Path) -> Path:
    """jax's tree at JAX_COMMIT, from GitHub's archive of it, downloaded and unpacked once."""
    tree = downloads / f"jax-{JAX_COMMIT[:12]}"
    if not (tree / BIG_MODULE).is_file():
        import io
        import tarfile
        import urllib.request

        print(f"downloading jax at {JAX_COMMIT[:12]} (once) into {downloads}", flush=True)
        url = f"https://codeload.github.com/jax-ml/jax/tar.gz/{JAX_COMMIT}"
        with urllib.request.urlopen(url) as response, tarfile.open(fileobj=io.BytesIO(response.read())) as archive:
            archive.extractall(downloads, filter="data")
        (downloads / f"jax-{JAX_COMMIT}").rename(tree)
    return tree


def jax_sources(version: str, downloads: Path) -> Path:
    """jax's own sources from its wheel, downloaded and unpacked once."""
    tree = downloads / f"jax-{version}"
    if (tree / "jax" / "__init__.py").is_file():
        return tree
    wheel = next(downloads.glob(f"jax-{version}-*.whl"), None)
    if wheel is None:
        print(f"downloading jax=={version} (once) into {downloads}", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                "3.12",
                f"jax=={version}",
                "-d",
                str(downloads),
            ],
            check=True,
        )
        wheel = next(downloads.glob(f"jax-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tree, [n for n in archive.namelist() if n.startswith("jax/")])
    return tree


GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}
HOOK = [
    sys.executable,
    "-c",
    "import sys; del sys.path[0]; from hijax_migrate.hooks import run; run()",
    "pre-push",
    "origin",
]  # as the installed hook runs it


def pre_push(tree: Path, must_change: list[str], scratch: Path) -> dict[str, tuple[float, float]]:
    """Wall and CPU times over a 10-file change (two of them primitives): the
    installed pre-push hook's command (git's stdin given) where it blocks the
    push (the primitives unmigrated) and where it lets it through (migrated),
    each after two earlier pushes, 2 s apart (its copy of the tree, its cache
    and its record of the copy's files as they left them: a hook's steady
    state), and on a first push (nothing kept); and ``--check
    --changed-since``, cold, then warm from a run over the earlier tree."""
    shas = _history(tree, must_change)
    hook = partial(_hook_run, HOOK, tree)
    blocks, passes = with_cache(scratch / "cache-push-blocked"), with_cache(scratch / "cache-push-passed")
    for kept in (blocks, passes):
        hook(shas["earlier"], shas["base"], kept)  # writes the copy: its files are too new to record
        time.sleep(2.1)
        hook(shas["later"], shas["earlier"], kept)  # a migration: records what the copy's files hold
    times = {
        "pre-push hook, a push it blocks": hook(shas["head"], shas["later"], blocks),
        "pre-push hook, a push it lets through": hook(shas["clean"], shas["later"], passes),
        "pre-push hook, a first push": hook(shas["head"], shas["later"], with_cache(scratch / "cache-first")),
    }
    return times | _changed_since(tree, shas, scratch)


def _history(tree: Path, must_change: list[str]) -> dict[str, str]:
    """A repository of ``tree``: its first commit, two earlier pushes (nine
    ordinary files and a primitive each), and the 10-file change twice over
    the last (``head``: as it is; ``clean``: the primitives migrated)."""
    git = ["git", "-C", str(tree), "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    ordinary = [p for p in sorted(tree.rglob("mod*.py")) if p.relative_to(tree).as_posix() not in must_change]
    step = max(len(ordinary) // 10, 1)
    ten = ordinary[::step][:8] + [tree / name for name in must_change[:2]]
    shas = {"base": _commit(git, "base", [])}
    shas["earlier"] = _commit(git, "an earlier push", ordinary[1::step][:9] + [tree / must_change[2]])
    shas["later"] = _commit(git, "a later push", ordinary[2::step][:9] + [tree / must_change[3]])
    shas["clean"] = _commit(git, "ten files, migrated", ten, migrated=ten[-2:])
    subprocess.run([*git, "checkout", "-q", shas["later"]], check=True)
    shas["head"] = _commit(git, "ten files", ten)
    return shas


def _commit(git: list[str], message: str, paths: list[Path], migrated: list[Path] = ()) -> str:
    env = {**os.environ, **GIT_ENV}
    for path in paths:
        path.write_text(path.read_text() + f"\n# {message}\n")
    if migrated:  # as the hook's own target (the tree pins none) would have them
        subprocess.run([*TOOL, "--in-place", "-q", "--no-cache", *map(str, migrated)], check=True, env=env)
    subprocess.run([*git, "add", "-A"], check=True, env=env)
    subprocess.run([*git, "commit", "-qm", message], check=True, env=env)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def _changed_since(tree: Path, shas: dict[str, str], scratch: Path) -> dict[str, tuple[float, float]]:
    """``--check --changed-since`` the last push, with an empty cache and
    with the cache a run over that push's tree left."""
    git = ["git", "-C", str(tree)]
    command = [*TOOL, "--check", "-q", "--target-jax", "0.10", "--changed-since", shas["later"], "."]
    cold, warm = with_cache(scratch / "cache-changed-cold"), with_cache(scratch / "cache-changed-warm")
    times = {"--check --changed-since, cold": wall_and_cpu(measure(command, tree, cold))}
    subprocess.run([*git, "checkout", "-q", shas["later"]], check=True)
    measure([*TOOL, "--check", "-q", "--target-jax", "0.10", "."], tree, warm)  # the run before
    subprocess.run([*git, "checkout", "-q", shas["head"]], check=True)
    times["--check --changed-since, warm"] = wall_and_cpu(measure(command, tree, warm))
    return times


def wall_and_cpu(run: tuple[float, float, str, float]) -> tuple[float, float]:
    return run[0], run[3]


def _hook_run(hook: list[str], tree: Path, local: str, remote: str, env: dict) -> tuple[float, float]:
    with tempfile.TemporaryFile() as stdin:
        stdin.write(f"refs/heads/main {local} refs/heads/main {remote}\n".encode())
        stdin.seek(0)
        return wall_and_cpu(measure(hook, tree, env, stdin))


def default_downloads() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hijax-migrate", appauthor=False)) / "bench"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--trees",
        default="synthetic,jax-0.10.2,jax-0.12.0.1,jax-head,big-module,big-module-0.12,rewrite-0.8.1,rewrite-0.10.2",
        help="comma-separated: synthetic, jax-0.10.2, jax-0.12.0.1, jax-head (jax's tree at "
        "JAX_COMMIT), big-module (its tests/hijax_test.py alone), big-module-0.12 (the same, "
        "migrated to 0.12), rewrite-0.8.1 and rewrite-0.10.2 (that module at those releases, "
        "migrated to 0.12, against libcst's parse and code generation; needs --jax-repo)",
    )
    parser.add_argument("--jax-tree", type=Path, help="a checkout of jax at JAX_COMMIT, instead of downloading it")
    parser.add_argument(
        "--jax-repo",
        type=Path,
        help="a git checkout (or bare repository) of jax with its release tags: the rewrite rows "
        f"({', '.join(REWRITE_TAGS)}) read {BIG_MODULE} from it",
    )
    parser.add_argument("--files", type=int, default=3000, help="size of the synthetic tree")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command; the best counts")
    parser.add_argument("--tree", type=Path, help="time this repository instead")
    parser.add_argument("--target-jax", default="0.10", help="with --tree: the release to migrate to")
    parser.add_argument("--downloads", type=Path, help="where the jax wheels are kept")
    args = parser.parse_args(argv)
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start; python {sys.version.split()[0]}",
        flush=True,
    )
    failed, met = False, {}
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        trees = [("tree", args.tree)] if args.tree else [(name.strip(), None) for name in args.trees.split(",")]
        for name, path in trees:
            target, expected, goal = args.target_jax, None, GOALS["cold"]
            if name == "synthetic":
                path, target, goal = scratch / "synthetic", "0.10", GOALS["synthetic"]
                expected = synth.build(path, args.files)
                # A checkout is older than the 2 s timestamp tick within which the
                # tool trusts no file's stat (scans.py): as old as that, and no older.
                time.sleep(2.1)
            elif name in REWRITE_TAGS:
                if args.jax_repo is None:
                    print(f"\n{name}: skipped (needs --jax-repo, a git checkout of jax with its tags)", flush=True)
                    continue
                print(f"\n{name}: {BIG_MODULE} at {REWRITE_TAGS[name]} (--target-jax 0.12)", flush=True)
                results = time_rewrite(args.jax_repo, REWRITE_TAGS[name], max(args.repeat, 3), scratch)
                lines, tree_met = rewrite_ratio(results)
                print("\n".join(table(results) + lines), flush=True)
                met.update({f"{name} {goal_name}": ok for goal_name, ok in tree_met.items()})
                continue
            elif name in ("jax-head", "big-module", "big-module-0.12"):
                path = args.jax_tree or jax_head(args.downloads or default_downloads())
                if name.startswith("big-module"):
                    target = BIG_MODULE_TARGETS[name]
                    print(f"\n{name}: {path / BIG_MODULE} (--target-jax {target})", flush=True)
                    results = time_module(path, args.repeat, scratch, target)
                    lines, tree_met = floor_ratio(results, "hijax-migrate, no cache", "floor: parse+metadata")
                    print("\n".join(table(results) + lines), flush=True)
                    met.update({f"{name} {goal_name}": ok for goal_name, ok in tree_met.items()})
                    continue
                target = JAX_HEAD_TARGET
            elif name.startswith("jax-"):
                version = name[len("jax-") :]
                path, target = jax_sources(version, args.downloads or default_downloads()), JAX_TARGETS[version]
            count = sum(1 for _ in path.rglob("*.py"))
            print(f"\n{name}: {path} ({count} Python files; --target-jax {target})", flush=True)
            wheel = name.startswith("jax-") and name != "jax-head"
            results = (time_head if name == "jax-head" else partial(time_tree, target=target, parse_floor=wheel))(
                path, repeat=args.repeat, scratch=scratch
            )
            lines, tree_met = ratios(results, GOALS["head"] if name == "jax-head" else goal)
            lines += parse_floor_ratio(results) if wheel else []
            if name == "jax-head":
                more, floor_met = floor_ratio(results, "hijax-migrate, cold cache", "floor: triage, parse+metadata")
                lines, tree_met = lines + more, tree_met | floor_met
            print("\n".join(table(results) + lines), flush=True)
            met.update({f"{name} {goal_name}": ok for goal_name, ok in tree_met.items()})
            if expected is not None:
                for run in ("cold", "warm"):
                    listed = sorted(results[f"hijax-migrate, {run} cache"][2].split())
                    ok = listed == expected
                    failed |= not ok
                    print(
                        f"  --check ({run}) listed {len(listed)} files; {len(expected)} need changes: "
                        f"{'exactly those' if ok else 'MISMATCH'}"
                    )
                for how, (wall, cpu) in pre_push(path, expected, scratch).items():
                    judged = how.startswith("pre-push hook, a push")  # the goal's; the others inform
                    if judged:
                        met[how] = wall < GOALS["pre-push"]
                    print(
                        f"  {how} over a 10-file change: {wall:.2f}s, CPU {cpu:.2f}s "
                        + (f"(goal < 0.5 s: {_ok(met[how])})" if judged else "(no goal)")
                    )
    print(
        f"\nload average {os.getloadavg()[0]:.1f} at the end; goals met: "
        f"{sum(met.values())} of {len(met)}"
        + "".join(f"\n  below goal on this machine: {k}" for k, v in met.items() if not v)
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
