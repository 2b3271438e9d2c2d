"""Facts a run's workers share (``tree/shared.py``): a module's summary made by
one worker is read by the others, whole; the folder is the run's own, gone at its
end; a fact that cannot be read is made again, and nothing changes an answer."""

from __future__ import annotations

import dataclasses
import os
import pickle
from pathlib import Path

import pytest
from hijax_migrate.analysis import index as index_module
from hijax_migrate.analysis.index import Index, _summarize
from hijax_migrate.rules.context import Options
from hijax_migrate.run import runner
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from hijax_migrate.tree.reads import TreeReads
from hijax_migrate.tree.shared import Shared
from test_project import OLD_RULE, write

GOLDEN = Path(__file__).parent.parent / "golden"


def _made(log: list, value):
    return lambda: log.append(value) or value


def test_a_run_in_one_process_shares_nothing_and_keeps_nothing():
    shared, made = Shared(), []
    assert shared.fact("k", _made(made, 1)) == 1 and shared.fact("k", _made(made, 1)) == 1
    assert made == [1, 1] and shared.folder is None


def test_the_first_to_make_a_fact_leaves_it_for_the_others():
    shared, made = Shared(), []
    shared.open()
    try:
        assert shared.fact("k", _made(made, {"a": [1, 2]})) == {"a": [1, 2]}
        other = pickle.loads(pickle.dumps(shared))  # another process's view: the folder, by name
        assert other.fact("k", _made(made, "not asked")) == {"a": [1, 2]}
        assert made == [{"a": [1, 2]}]
    finally:
        shared.close()


def test_a_fact_made_in_a_forked_worker_is_read_by_its_parent():
    shared = Shared()
    shared.open()
    try:
        child = os.fork()
        if child == 0:  # the worker: makes it, leaves it, ends
            shared.fact("k", lambda: "made by the worker")
            os._exit(0)
        assert os.waitpid(child, 0)[1] == 0
        assert shared.fact("k", lambda: "made again") == "made by the worker"
    finally:
        shared.close()


@pytest.mark.parametrize("damage", [b"", b"\x80not a pickle", pickle.dumps("x")[:-3]])
def test_a_fact_that_cannot_be_read_is_made_again(damage):
    shared = Shared()
    shared.open()
    try:
        Path(shared.folder, "k").write_bytes(damage)
        assert shared.fact("k", lambda: "made") == "made"
        assert shared.fact("k", lambda: "not asked") == "made"  # and left, over the damaged one
    finally:
        shared.close()


def test_no_answer_is_left_as_a_fact():
    shared, made = Shared(), []
    shared.open()
    try:
        assert shared.fact("k", _made(made, None)) is None and shared.fact("k", _made(made, None)) is None
        assert made == [None, None] and os.listdir(shared.folder) == []
    finally:
        shared.close()


def test_the_folder_is_the_run_s_own_and_goes_with_the_process_that_made_it():
    shared = Shared()
    shared.open()
    folder = shared.folder
    assert os.stat(folder).st_mode & 0o077 == 0  # only its user may write, or read, there
    shared.fact("k", lambda: 1)
    child = os.fork()
    if child == 0:  # a worker ending never takes the others' facts away
        shared.close()
        os._exit(0 if os.path.isdir(folder) else 1)
    assert os.waitpid(child, 0)[1] == 0 and os.path.isdir(folder)
    shared.close()
    assert not os.path.exists(folder)


def _same(a, b, seen: dict) -> bool:
    """Equal, field by field, and sharing objects where ``a`` shares them (a scope a class
    stands in is the scope that binds it)."""
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a):
        if id(a) in seen:
            return seen[id(a)] is b
        seen[id(a)] = b
        return all(_same(getattr(a, f.name), getattr(b, f.name), seen) for f in dataclasses.fields(a))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y, seen) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key], seen) for key in a)
    return a == b


def test_every_golden_module_s_summary_is_read_back_whole():
    """What one worker leaves, another reads as it was made: every field, every shared object."""
    shared = Shared()
    shared.open()
    try:
        cases = sorted(GOLDEN.rglob("*.py"))
        assert len(cases) > 100
        for number, case in enumerate(cases):
            made = _summarize(case.read_text(), "pkg.mod", False)
            shared.fact(str(number), lambda made=made: made)
            read = Shared.fact(pickle.loads(pickle.dumps(shared)), str(number), lambda: pytest.fail("made again"))
            assert made is None or (read is not made and _same(made, read, {})), case
    finally:
        shared.close()


def _count_summaries(monkeypatch, log: Path) -> None:
    summarize = index_module._summarize

    def counted(text, module, is_package):
        with open(log, "a") as out:  # forked workers append to the same file
            out.write(module + "\n")
        return summarize(text, module, is_package)

    monkeypatch.setattr(index_module, "_summarize", counted)


def test_a_base_module_one_worker_summarised_is_read_by_the_other(tmp_path, monkeypatch):
    write(tmp_path, {"base.py": "class Base:\n    pass\n"})
    log, reads = tmp_path / "log", TreeReads()
    _count_summaries(monkeypatch, log)
    reads.shared.open()
    try:
        child = os.fork()
        if child == 0:  # one worker's index summarises the base module, and ends
            Index(roots=(tmp_path,), reads=reads).summary("base")
            os._exit(0)
        assert os.waitpid(child, 0)[1] == 0
        summary = Index(roots=(tmp_path,), reads=reads).summary("base")  # another worker's
        assert [info.qualname for info in summary.classes] == ["Base"]
        assert log.read_text().splitlines() == ["base"]
    finally:
        reads.shared.close()


def test_a_run_on_every_core_gives_what_a_run_in_one_process_gives(tmp_path, monkeypatch):
    """The same outcomes, the summaries shared; and the run's folder gone at its end."""
    base = "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
    leaves = {f"leaf{n}.py": f"from base import Base\n\n\nclass Leaf{n}(Base):\n{OLD_RULE}" for n in range(6)}
    write(tmp_path, {"base.py": base, **leaves})
    jobs = [Job(p, p.relative_to(tmp_path).as_posix(), tmp_path) for p in walk(tmp_path)]
    alone = run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=1)
    folders = []
    pool = runner._pool

    def started(run, *rest):
        started = pool(run, *rest)
        folders.append(run.reads.shared.folder)
        return started

    monkeypatch.setattr(runner, "_pool", started)
    monkeypatch.setattr(runner, "_PARALLEL_TRIAGE", 1)
    together = run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=2)
    assert [(o.file, o.diff, o.findings) for o in together] == [(o.file, o.diff, o.findings) for o in alone]
    assert folders and not any(os.path.exists(folder) for folder in folders)
