"""A run on every core, and a run served by the cache, give exactly the
serial, uncached run's result: on generated trees (``tree_cases``), each in
fresh interpreters, with every parallel path forced on; the same stdout,
stderr, exit code and written bytes. (Each fresh interpreter is forked from
one that has imported libcst and nothing of the tool: ``fresh_runs``.)"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from fresh_runs import FORKER
from hijax_migrate.sources.files import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_cases import trees, write

_RUN = (
    "import json, sys\nfrom hijax_migrate.cli import main\nfrom hijax_migrate.run import runner\n"
    "from hijax_migrate.tree import scans\n"
    "for name, value in json.loads(sys.argv[1]).items():\n"
    "    setattr(scans if name == '_RACY_NS' else runner, name, value)\n"
    "sys.exit(main(sys.argv[2:]))\n"
)
_EVERY_CORE = {"_PARALLEL_PREFILTER": 1, "_PARALLEL_TRIAGE": 1, "_PARALLEL_FROM": 1}
PARALLEL = {  # --jobs 2, each path that must not change a result forced on
    # the pre-filter's workers learn every file's names; the parent's index of names is made of them
    "index by the parent, triage on every core": {**_EVERY_CORE, "_FEW_CANDIDATES": 0, "_LEARNING": 1},
    # the pre-filter's pool triages on, its workers forked before the run's index was made
    "searches by passes, triage on every core": {**_EVERY_CORE, "_FEW_CANDIDATES": 1 << 20},
    "triage in the parent, a pool for libcst": {
        **_EVERY_CORE,
        "_PARALLEL_TRIAGE": 1 << 20,
        "_PARALLEL_TRIAGE_BYTES": 1 << 40,
        "_FEW_CANDIDATES": 0,
    },
    "the pre-filter's pool migrates what the parent triaged": {  # its workers forked before any index
        **_EVERY_CORE,
        "_PARALLEL_TRIAGE": 1 << 20,
        "_PARALLEL_TRIAGE_BYTES": 1 << 40,
        "_FEW_CANDIDATES": 1 << 20,
    },
    "one process, its searches of the tree by a forked child": {  # prefetch.py, where not --in-place
        "_PARALLEL_PREFILTER": 1 << 20,
        "_PARALLEL_TRIAGE": 1 << 20,
        "_PARALLEL_TRIAGE_BYTES": 1 << 40,
        "_PARALLEL_FROM": 1 << 20,
    },
}
TARGETS = ("0.10", "0.12")


def run(
    root: Path, config: dict, *args: str, jobs: int = 2, cache: Path | None = None, where: tuple[str, ...] = (".",)
) -> tuple:
    """(exit code, stdout, stderr) of the tool over ``where`` (paths, and any
    flags for every run) in ``root``, in a fresh interpreter; ``config``:
    the runner's thresholds."""
    env = {**os.environ, "HIJAX_MIGRATE_CACHE_DIR": str(cache)} if cache is not None else None
    flags = [*args, "--jobs", str(jobs), *([] if cache is not None else ["--no-cache"]), *where]
    done = FORKER.code(_RUN, [json.dumps(config), *flags], cwd=root, env=env)
    # a run that never started (its harness failing to import) would agree with any other
    assert "Traceback (most recent call last)" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def written(root: Path, files: dict[str, str], config: dict, *args: str, **how) -> tuple:
    """The run's result with --in-place over a fresh copy of the tree, at the
    same path (messages may name other files), and the bytes it leaves."""
    shutil.rmtree(root, ignore_errors=True)
    write(root, files)
    result = run(root, config, "--in-place", *args, **how)
    return result, {path.relative_to(root).as_posix(): path.read_bytes() for path in walk(root)}


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=trees(),
    where=st.sampled_from((".", "pkg")),
    strategy=st.sampled_from(("auto", "rename", "accum")),
    path=st.sampled_from(sorted(PARALLEL)),
)
def test_parallel_and_cached_runs_give_the_serial_uncached_result(case, where, strategy, path, tmp_path_factory):
    """Every parallel path with --diff; one of them (``path``) writing, and keeping results."""
    files, edited = case
    root, how = tmp_path_factory.mktemp("tree") / "project", {"where": ("--strategy", strategy, where)}
    write(root, files)
    serial = {target: run(root, {}, "--diff", "--target-jax", target, jobs=1, **how) for target in TARGETS}
    for target in TARGETS:
        for name, config in PARALLEL.items():
            assert run(root, config, "--diff", "--target-jax", target, **how) == serial[target], (name, target)
    for target in TARGETS:
        expected = written(root, files, {}, "--target-jax", target, jobs=1, **how)
        assert written(root, files, PARALLEL[path], "--target-jax", target, **how) == expected, target
    cached_runs_agree(root, files, edited, serial["0.12"], expected, {**PARALLEL[path], "_RACY_NS": 0}, how)


def cached_runs_agree(
    root: Path, files: dict[str, str], edited: dict[str, str], serial: tuple, expected: tuple, config: dict, how: dict
) -> None:
    """At 0.12, runs on every core that keep results and the stat record
    (files just written count as settled) give the uncached serial result."""
    cache, at = root.parent / "cache", ("--target-jax", "0.12")
    # An in-place run that fills the cache writes what an uncached one does;
    # the next run, over the tree it wrote, is not served its stale answers.
    assert written(root, files, config, *at, cache=cache, **how) == expected
    again = run(root, {}, "--diff", *at, jobs=1, **how)
    assert run(root, config, "--diff", *at, cache=cache, **how) == again
    shutil.rmtree(cache)
    shutil.rmtree(root)
    write(root, files)
    for _ in ("cold", "warm"):
        assert run(root, config, "--diff", *at, cache=cache, **how) == serial
    write(root, edited)  # an edit that changes answers in files other than its own
    fresh = run(root, {}, "--diff", *at, jobs=1, **how)
    kept = shutil.copytree(cache, root.parent / "kept")  # the same stale cache for each
    assert run(root, {"_RACY_NS": 0}, "--diff", *at, jobs=1, cache=cache, **how) == fresh
    assert run(root, config, "--diff", *at, cache=kept, **how) == fresh


def test_a_base_is_decided_on_its_subclasses_as_found_whichever_file_comes_first(tmp_path):
    """Found by the test above: a subclass in another file defines its rule
    twice, so its migration gives the last one the accumulator form. Its
    base was renamed where its file was done first (a worker's, or a serial
    run's with the base's file sorted first), and given accumulators where
    the subclass's file was done first in the same process (the base then saw
    the subclass as rewritten): now it takes the accumulator form on every
    path (a rename would give the subclass both rules)."""
    base = (
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n"
        "    def vjp_bwd(self, res, g):\n        return (2.0 * g,)\n"
    )
    sub = (
        "from pkg.{} import Base\n\n\nclass Sub(Base):\n    def vjp_bwd(self, res, g):\n        return (g,)\n\n"
        "    def vjp_bwd(self, res, g):\n        return (3.0 * g,)\n"
    )
    for first, second in (("a", "b"), ("b", "a")):  # the base's file sorted first, then last
        root = tmp_path / first
        write(root, {"pkg/__init__.py": "", f"pkg/{first}.py": base, f"pkg/{second}.py": sub.format(first)})
        serial = run(root, {}, "--diff", "--target-jax", "0.10", jobs=1)
        assert "acc.accum(ct), arg_accums, (2.0 * g,))" in serial[1]  # the base's rule
        assert "vjp_bwd_retval" not in serial[1]
        parallel = PARALLEL["index by the parent, triage on every core"]
        assert run(root, parallel, "--diff", "--target-jax", "0.10") == serial


def test_each_file_is_decided_on_the_others_as_found(tmp_path):
    """The next file's view of a process's index never sees what the migration
    of an earlier one made of its module: which files a process does before
    which (a worker gets some, in any order) cannot change an answer."""
    from hijax_migrate.analysis.families import form
    from hijax_migrate.analysis.index import Index
    from hijax_migrate.analysis.project import view_of
    from hijax_migrate.analysis.scopes import CLASSIC
    from hijax_migrate.core.model import Options
    from hijax_migrate.engine.engine import migrate_source

    text = (
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Op(VJPHiPrimitive):\n"
        "    def vjp_bwd(self, res, g):\n        return (g,)\n"
    )
    write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": text})
    index = Index((), (tmp_path,))
    assert (
        "def vjp_bwd_retval"
        in migrate_source(text, "pkg/a.py", Options(target=(0, 10, 0)), view_of(index), "pkg.a").code
    )
    [op] = view_of(index).summary("pkg.a").classes  # another file's migration
    assert form(op) == CLASSIC and "vjp_bwd_retval" not in op.body.bindings
