"""Whole-tree runs: what is parsed, what is listed, in what order."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import synth  # noqa: E402
from fresh_runs import FORKER  # noqa: E402
from hijax_migrate.core.model import Options  # noqa: E402
from hijax_migrate.run.runner import run  # noqa: E402
from hijax_migrate.run.state import Job, roots_of  # noqa: E402
from hijax_migrate.sources.files import walk  # noqa: E402
from terminal import on_a_terminal  # noqa: E402


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("synth")
    return root, synth.build(root, files=1000, seed=3)


def outcomes(root: Path, workers: int):
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    return run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=workers)


def test_exactly_the_files_that_need_changes_are_listed(synthetic):
    root, expected = synthetic
    assert expected, "the synthetic tree has primitives to migrate"
    listed = [o.file for o in outcomes(root, workers=1) if o.changed]
    assert listed == expected  # look-alikes and ordinary files untouched


def test_parallel_run_reports_the_same_in_the_same_order(synthetic):
    root, _ = synthetic
    serial = [(o.file, o.diff, o.findings) for o in outcomes(root, workers=1)]
    parallel = [(o.file, o.diff, o.findings) for o in outcomes(root, workers=3)]
    assert parallel == serial
    assert [file for file, _, _ in serial] == sorted(file for file, _, _ in serial)


def test_a_tree_without_hijax_words_never_imports_libcst(tmp_path):
    for n in range(20):
        (tmp_path / f"m{n}.py").write_text(f"class Tape{n}:\n    def backward(self, g):\n        return g\n")
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        f"assert main(['--check', '-q', {str(tmp_path)!r}]) == 0\n"
        "print('libcst' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_progress_bar_only_on_a_terminal_and_never_with_check(tmp_path):
    root = tmp_path
    for n in range(30):  # enough candidates for a bar
        (root / f"op{n}.py").write_text(synth._DIRECT.format(n=n))
    shown = on_a_terminal(["--target-jax", "0.10", "."], root, "stderr")
    assert "migrating" in shown and "files scanned" in shown
    assert "migrating" not in on_a_terminal(["--check", "--target-jax", "0.10", "."], root, "stderr")
    piped = FORKER.module("hijax_migrate", ["--target-jax", "0.10", "."], root)  # a fresh process, output to files
    assert "migrating" not in piped.stderr and "files scanned" in piped.stderr


def test_triage_on_every_core_reports_the_same_and_keeps_what_workers_learnt(synthetic, tmp_path, monkeypatch):
    """From 24 candidates, forked workers triage too: the outcomes are the
    serial run's, and the names of the tree the workers read (for subclass
    searches) reach the record the parent saves, as a serial run's do."""
    from hijax_migrate.run import runner
    from hijax_migrate.tree import scans
    from hijax_migrate.tree.scans import Scans

    monkeypatch.setattr(scans, "_RACY_NS", 0)  # the tree was just written: its files count as settled
    root, _ = synthetic
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    records = {}
    for workers, smallest in ((1, 24), (2, 1)):
        monkeypatch.setattr(runner, "_PARALLEL_TRIAGE", smallest)
        cache = tmp_path / f"cache{workers}"
        done = run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=workers, cache_dir=cache)
        records[workers] = ([(o.file, o.diff, o.findings) for o in done], Scans(cache, roots_of(jobs))._known)
    (serial, serial_record), (parallel, parallel_record) = records[1], records[2]
    assert parallel == serial
    named = {key for key, entry in serial_record.items() if "names" in entry}
    assert named and named == {key for key, entry in parallel_record.items() if "names" in entry}


def test_a_few_large_candidates_are_triaged_on_every_core(tmp_path):
    """Forking pays for bytes to parse as well as for files: jax's sources hold
    a score of candidates, some of them hundreds of kilobytes."""
    from hijax_migrate.run import runner

    big, small = tmp_path / "big.py", tmp_path / "small.py"
    big.write_text("x = 1\n" * 50_000)
    small.write_text("x = 1\n")
    assert runner._worth_forking([Job(big, "big.py", tmp_path), Job(small, "small.py", tmp_path)])
    assert not runner._worth_forking([Job(small, "small.py", tmp_path)] * 5)
    assert not runner._worth_forking([Job(big, "big.py", tmp_path)])  # one file: no one to share it with
    assert runner._worth_forking([Job(small, "small.py", tmp_path)] * runner._PARALLEL_TRIAGE)


def test_workers_migrate_what_they_triage(synthetic, tmp_path):
    """Where candidates are triaged on every core, the worker that finds a
    file needs libcst migrates it at once: the files written are the serial run's, the outcomes come in
    the jobs' order, and the parent never imports libcst."""
    import shutil

    root, expected = synthetic
    trees = {jobs: shutil.copytree(root, tmp_path / f"tree{jobs}") for jobs in ("1", "2")}
    code = (
        "import sys\nfrom hijax_migrate.run import runner\nfrom hijax_migrate.cli import main\n"
        "runner._PARALLEL_TRIAGE = 1\n"  # every run of two files or more triaged on every core
        "code = main(sys.argv[1:])\nprint(code, 'libcst' in sys.modules)\n"
    )
    for jobs, tree in trees.items():
        done = subprocess.run(
            [sys.executable, "-c", code, "--in-place", "--target-jax", "0.10", "--no-cache", "--jobs", jobs, str(tree)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.split() == ["0", "True" if jobs == "1" else "False"], done.stderr
    written = {
        jobs: {path.relative_to(tree).as_posix(): path.read_text() for path in walk(tree)}
        for jobs, tree in trees.items()
    }
    assert written["1"] == written["2"]
    assert [name for name, text in written["2"].items() if text != (root / name).read_text()] == expected


def test_a_whole_tree_is_read_for_its_names_once_not_once_a_worker(synthetic, tmp_path, monkeypatch):
    """Over many candidates the subclass index is built by the parent before
    the workers fork; and the search for uses, whose subclass searches the
    index answers, looks for the names of the rules searched for alone (no class
    names besides), and the search for suppressions (``marks_elsewhere``) for the
    bytes of one."""
    from hijax_migrate.analysis import index as index_module
    from hijax_migrate.analysis import naming as naming_module
    from hijax_migrate.run import runner
    from hijax_migrate.tree import scans

    root, _ = synthetic
    log = tmp_path / "log"
    names_in, held = naming_module.names_in, scans.held_words

    def logged(kind, function):
        def call(data, *words):
            with open(log, "a") as out:  # forked workers append to the same file
                out.writelines(f"{kind} {word}\n" for word in (words[0] if words else [""]))
            return function(data, *words)

        return call

    monkeypatch.setattr(index_module, "names_in", logged("names", names_in))
    monkeypatch.setattr(scans, "held_words", logged("holds", held))
    monkeypatch.setattr(runner, "_PARALLEL_TRIAGE", 1)
    monkeypatch.setattr(runner, "_FEW_CANDIDATES", 4)  # a whole tree's run
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=2)
    lines = log.read_text().splitlines()
    assert len([line for line in lines if line.startswith("names ")]) == len(jobs)
    holds = {line for line in lines if line.startswith("holds ")}  # the rules searched for (index.RULES_SEARCHED)
    assert holds == {"holds vjp_bwd", "holds vjp_fwd", "holds dce", "holds (a mark)"}


def test_the_pre_filter_reads_on_every_core_as_the_parent_would(synthetic, tmp_path, monkeypatch):
    """Many files to read: the workers read them, the parent none; the same
    candidates, and what the workers learnt reaches the record the parent saves."""
    import os

    from hijax_migrate.engine.triage import candidate_words
    from hijax_migrate.run import runner
    from hijax_migrate.run.state import Run
    from hijax_migrate.tree import scans
    from hijax_migrate.tree.scans import Scans

    monkeypatch.setattr(scans, "_RACY_NS", 0)  # the tree was just written: its files count as settled
    root, _ = synthetic
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    words, roots = candidate_words(Options(target=(0, 10, 0))), roots_of(jobs)
    serial = [job for job in jobs if Scans(None, roots).is_candidate(job.path, words)]
    log, file_words = tmp_path / "log", scans.file_words

    def logged(path, *rest):
        with open(log, "a") as out:  # forked workers append to the same file
            out.write(f"{os.getpid()}\n")
        return file_words(path, *rest)

    monkeypatch.setattr(scans, "file_words", logged)
    monkeypatch.setattr(runner, "_PARALLEL_PREFILTER", 1)  # the tree has fewer files
    with Run.start(jobs, Options(target=(0, 10, 0)), in_place=False, workers=2, cache_dir=tmp_path / "cache") as run:
        workers = runner._Workers(run)
        try:
            assert runner._candidates(run, words, workers) == serial
        finally:
            workers.close()
    readers = log.read_text().split()
    assert len(readers) == len(jobs) and str(os.getpid()) not in readers
    again = Scans(tmp_path / "cache", roots)
    assert all(again.answered(job.path, words) is not None for job in jobs)  # no file to read again


def test_the_pre_filters_workers_triage_the_few_candidates_they_find(synthetic, tmp_path, monkeypatch):
    """Few candidates (no index of names to share): the pool that read the files
    triages them, forked once; its workers make the run's index themselves, and
    the outcomes are a serial run's."""
    import os

    from hijax_migrate.engine import triage
    from hijax_migrate.run import runner
    from hijax_migrate.tree import scans

    root, _ = synthetic
    serial = [(o.file, o.diff, o.findings) for o in outcomes(root, workers=1)]
    log, file_words, triage_of = tmp_path / "log", scans.file_words, triage.triage_of

    def logged(what, work):
        def call(*args):
            with open(log, "a") as out:  # forked workers append to the same file
                out.write(f"{what} {os.getpid()}\n")
            return work(*args)

        return call

    monkeypatch.setattr(scans, "file_words", logged("read", file_words))
    monkeypatch.setattr(triage, "triage_of", logged("triage", triage_of))
    for name, value in (("_PARALLEL_PREFILTER", 1), ("_FEW_CANDIDATES", 1 << 20), ("_PARALLEL_TRIAGE", 1)):
        monkeypatch.setattr(runner, name, value)
    assert [(o.file, o.diff, o.findings) for o in outcomes(root, workers=2)] == serial
    pids = {
        what: {line.split()[1] for line in log.read_text().splitlines() if line.startswith(what)}
        for what in ("read", "triage")
    }
    assert str(os.getpid()) not in pids["read"] | pids["triage"]
    # one pool of two: whichever worker read what (a busy machine may give one every slice)
    assert pids["triage"] and pids["read"] and len(pids["read"] | pids["triage"]) <= 2


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_triage_sends_to_libcst_is_not_triaged_again(synthetic, tmp_path, monkeypatch, workers):
    """Its migration starts from libcst: triage's answer for the same text, in
    the same process, stands (each candidate triaged once, in the parent or a worker)."""
    from hijax_migrate.engine import triage
    from hijax_migrate.run import runner

    root, expected = synthetic
    log, triage_of = tmp_path / "log", triage.triage_of

    def logged(code, path, *rest):
        with open(log, "a") as out:  # forked workers append to the same file
            out.write(f"{path}\n")
        return triage_of(code, path, *rest)

    monkeypatch.setattr(triage, "triage_of", logged)
    monkeypatch.setattr(runner, "_PARALLEL_TRIAGE", 1)
    done = outcomes(root, workers)
    assert [o.file for o in done if o.changed] == expected
    triaged = log.read_text().split()
    assert sorted(triaged) == sorted(set(triaged)) and set(expected) <= set(triaged)


def test_a_whole_tree_is_read_for_its_names_by_the_pre_filters_workers(synthetic, tmp_path, monkeypatch):
    """From _LEARNING files to read, the pre-filter's workers read each file's
    names, and which likely words it holds, too: the parent builds the
    subclass index from what they learnt, reading none, the search for uses
    reads only the files holding the rule's name, and the outcomes are a
    serial run's."""
    import os

    from hijax_migrate.analysis import index as index_module
    from hijax_migrate.analysis import naming as naming_module
    from hijax_migrate.run import runner
    from hijax_migrate.sources import originals
    from hijax_migrate.tree import scans

    root, _ = synthetic
    serial = [(o.file, o.diff, o.findings) for o in outcomes(root, workers=1)]
    log, names_in, read = tmp_path / "log", naming_module.names_in, originals.read_bytes

    def logged(data):
        with open(log, "a") as out:  # forked workers append to the same file
            out.write(f"{os.getpid()}\n")
        return names_in(data)

    def read_logged(path):
        with open(tmp_path / "reads", "a") as out:
            out.write(f"{path}\n")
        return read(path)

    monkeypatch.setattr(index_module, "names_in", logged)
    monkeypatch.setattr(originals, "read_bytes", read_logged)
    monkeypatch.setattr(scans, "_RACY_NS", 0)  # the tree was just written: its files count as settled
    for name, value in (("_PARALLEL_PREFILTER", 1), ("_LEARNING", 1), ("_FEW_CANDIDATES", 4), ("_PARALLEL_TRIAGE", 1)):
        monkeypatch.setattr(runner, name, value)
    assert [(o.file, o.diff, o.findings) for o in outcomes(root, workers=2)] == serial
    readers = log.read_text().split()
    assert len(readers) == len(walk(root)) and str(os.getpid()) not in readers
    reads = (tmp_path / "reads").read_text().split()  # a file's bytes read from disk
    plain = [path for path in walk(root) if b"vjp_bwd" not in path.read_bytes() and b"HiPrim" not in path.read_bytes()]
    counts = {str(path): reads.count(str(path)) for path in plain}  # neither a use nor a base module
    assert set(counts.values()) == {1}, sorted(counts.items(), key=lambda item: -item[1])[:3]


def test_the_workers_queue_starts_with_the_files_that_define_a_primitives_rules(tmp_path):
    """A file naming both of a primitive's rules (whole names, as the pre-filter reads
    them) is the likeliest to need libcst: it goes before any other, then the largest."""
    import os
    import threading

    from hijax_migrate.run import runner

    files = {
        "big.py": "x = 1\n" * 500 + "def vjp_bwd_retval(): pass\nvjp_fwd = 1\n",  # vjp_bwd only as a part
        "rules.py": "class P(B):\n    def vjp_fwd(self): pass\n    def vjp_bwd(self): pass\n",
        "mid.py": "y = 2\n" * 50,
        "rules_big.py": "z = 3\n" * 100 + "class P(B):\n    def vjp_fwd(s): pass\n    def vjp_bwd(s): pass\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    ranked = sorted(files, key=lambda name: runner._first(tmp_path / name))
    assert ranked == ["rules_big.py", "rules.py", "big.py", "mid.py"]
    assert runner._first(tmp_path / "missing.py") == (True, 0)  # unreadable: last, its migration says why
    os.mkfifo(tmp_path / "fifo.py")  # a candidate (special files are reported): never read, nor waited for
    ranked = []
    reader = threading.Thread(target=lambda: ranked.append(runner._first(tmp_path / "fifo.py")), daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert ranked == [(True, 0)]


def test_the_parse_floor_runs_the_pipeline_with_triage_only_parsing(tmp_path, monkeypatch):
    """``floor.py --parse-only``, the bench's floor of a cold check: the tool's walk and
    pre-filter as they are, each candidate parsed by ``ast`` and nothing decided."""
    import floor
    from hijax_migrate.analysis import ast_summary
    from hijax_migrate.cli import main
    from hijax_migrate.engine import triage

    old = "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Mul(VJPHiPrimitive):\n"
    old += "    def vjp_bwd(self, res, g):\n        return (g * res,)\n"
    (tmp_path / "op.py").write_text(old)
    (tmp_path / "plain.py").write_text("def f(x):\n    return x\n")
    args = [str(tmp_path), "--target-jax", "0.10", "--no-cache", "-j1"]
    assert main(["--check", "-q", *args]) == 1  # the tool migrates op.py
    parsed = []
    monkeypatch.setattr(triage, "triage_of", triage.triage_of)  # put back at teardown: main() replaces it
    monkeypatch.setattr(ast_summary, "parse_ast", lambda code, *a: parsed.append(code) or ast.parse(code))
    assert floor.main(["--parse-only", *args]) == 0  # nothing decided, nothing to migrate
    assert parsed == [old]  # the candidate alone, once; the file naming no word never read as code


def test_the_resolve_floor_parses_the_candidates_and_the_modules_their_bases_come_from(tmp_path, monkeypatch):
    """``floor.py --resolve-only``: each candidate parsed and its classes' kinds decided, which
    reads the module a base comes from (one naming no word of the rules: never a candidate)."""
    import floor
    from hijax_migrate.analysis import index
    from hijax_migrate.engine import triage

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "base.py").write_text("from jax.experimental import hijax as h\n\nBase = h.HiP\n")
    old = "from pkg.base import Base\n\nclass Mul(Base):\n    def vjp_bwd(self, res, g):\n        return (g * res,)\n"
    (tmp_path / "pkg" / "op.py").write_text(old)
    args = [str(tmp_path), "--target-jax", "0.10", "--no-cache", "-j1"]
    parsed = []
    monkeypatch.setattr(triage, "triage_of", triage.triage_of)  # put back at teardown: main() replaces it
    for module in (triage, index):
        monkeypatch.setattr(module, "parse_ast", lambda code, *a, **k: parsed.append(code) or ast.parse(code))
    assert floor.main(["--resolve-only", *args]) == 0  # the kinds decided, nothing reported
    assert parsed == [old, "from jax.experimental import hijax as h\n\nBase = h.HiP\n"]


def test_a_warm_check_starts_without_what_only_a_write_a_fork_or_a_notebook_needs(tmp_path):
    """Every run pays each module it imports: a check answered from the cache (a second run, a
    hook's) never needs libcst, a fork, a temporary file, pickle, TOML (no pyproject.toml here)
    or the notebooks' code."""
    import os

    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "op.py").write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Mul(VJPHiPrimitive):\n"
        "    def vjp_bwd_retval(self, res, g):\n        return (g * res,)\n"
    )
    for n in range(3):
        (tree / f"m{n}.py").write_text(f"def f{n}(x):\n    return x\n")
    lazy = [
        "libcst",
        "multiprocessing",
        "tempfile",
        "pickle",
        "tomllib",
        "hijax_migrate.sources.cells",
        "hijax_migrate.tree.prefetch",
    ]
    code = (
        "import sys\nfrom hijax_migrate.cli import main\nfrom hijax_migrate.tree import scans\n"
        "scans._RACY_NS = 0\n"  # the files are as old as a checkout's (the record trusts none changed in 2 s)
        f"assert main(['--check', '-q', '--target-jax', '0.10', {str(tree)!r}]) == 0\n"
        f"print(' '.join(m for m in {lazy!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "HIJAX_MIGRATE_CACHE_DIR": str(tmp_path / "cache")}
    cold, warm = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env) for _ in "12")
    assert cold.returncode == 0 and "tempfile" in cold.stdout  # the cold run wrote the cache's entries
    assert warm.returncode == 0 and warm.stdout.strip() == "", warm.stdout


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n",
        "def vjp_fwd(self): pass\n",
        "def vjp_fwd(self): pass\ndef vjp_bwd(self): pass\n",
        "# vjp_fwd_and vjp_bwd_retval\n",
        "y = 'vjp_bwd' + 'vjp_fwd'\n" * 50,
    ],
)
def test_the_workers_queue_is_ranked_from_the_record_as_from_the_file(tmp_path, monkeypatch, text):
    """Where the pre-filter asked the record a file's words, its place in the queue
    (both rules named first, then the largest) is read off the record, and it is the
    place a read of the file gives; the file is not opened again."""
    from hijax_migrate.engine.triage import candidate_words
    from hijax_migrate.run import runner
    from hijax_migrate.tree import scans
    from hijax_migrate.tree.scans import Scans

    monkeypatch.setattr(scans, "_RACY_NS", 0)  # the file was just written: it counts as settled
    path = tmp_path / "m.py"
    path.write_text(text)
    record = Scans(tmp_path / "cache", (tmp_path,))
    record.is_candidate(path, candidate_words(Options(target=(0, 10, 0))))
    read = runner._first(path)

    def opened(*args):
        raise AssertionError("opened again")

    monkeypatch.setattr(runner.os, "open", opened)
    assert runner._first(path, record) == read


def test_a_first_run_reads_no_candidate_for_the_cache(tmp_path, monkeypatch):
    """A cache whose folder is not made yet, or off, holds nothing: no candidate is
    read and hashed to look for an entry (a cold check of jax's sources read 25)."""
    from hijax_migrate.run import runner
    from hijax_migrate.run.state import Run

    for n in range(3):
        (tmp_path / f"op{n}.py").write_text(synth._DIRECT.format(n=n))
    jobs = [Job(p, p.name, tmp_path) for p in walk(tmp_path)]
    looked = []
    settle = runner._settle
    monkeypatch.setattr(
        runner, "_settle", lambda run, job, triage, **k: looked.append(triage) or settle(run, job, triage, **k)
    )
    for cache in (tmp_path / "not-yet", None):
        with Run.start(jobs, Options(target=(0, 10, 0)), in_place=False, workers=1, cache_dir=cache) as run:
            assert [o.changed for o in runner.migrate(run)] == [True] * 3
    assert False not in looked  # triage settles them (True); no lookup alone
    with Run.start(jobs, Options(target=(0, 10, 0)), in_place=False, workers=1, cache_dir=tmp_path / "not-yet") as run:
        assert [o.changed for o in runner.migrate(run)] == [True] * 3  # the second run finds the first's entries
    assert looked.count(False) == 3


def test_the_record_lists_the_words_of_every_file_asked_them_once(tmp_path, monkeypatch):
    """The pre-filter's record of a tree: each file's words asked and named, sorted as
    before, in one list a set (most files are asked the same and name none), so a
    worker's answer to its parent pickles each list once, not once a file."""
    import pickle

    from hijax_migrate.tree import scans as scans_module

    monkeypatch.setattr(scans_module, "_RACY_NS", 0)  # just written: settled all the same
    words = frozenset({b"vjp_bwd", b"HiPrim", b"bound dce"})
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text("x = 1\n" if name != "c.py" else "def vjp_bwd(self): pass\n")
    record = scans_module.Scans(tmp_path / "record", (tmp_path,))
    assert [record.is_candidate(tmp_path / name, words) for name in ("a.py", "b.py", "c.py")] == [False, False, True]
    learnt = record.taken()
    entries = [learnt[key] for key in sorted(learnt)]
    assert len(entries) == 3 and all(entry["asked"] == ["HiPrim", "bound dce", "vjp_bwd"] for entry in entries)
    assert len({id(entry["asked"]) for entry in entries}) == 1
    assert sorted(entry["named"] for entry in entries) == [[], [], ["vjp_bwd"]]
    assert pickle.loads(pickle.dumps(learnt)) == learnt
