"""A serial run's first pass of the tree, made by a forked child while the
run imports libcst: it finds what the run's own pass finds, teaches the stat
record the same, and a child that fails, dies or is never asked costs only
its time."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from hijax_migrate.tree import prefetch
from hijax_migrate.tree.holders import Holders
from hijax_migrate.tree.scans import Scans
from test_accum_calls import BASE, CALLER
from test_tree_searches import NAMERS

pytestmark = pytest.mark.skipif(not prefetch.can_fork(), reason="forks only where multiprocessing would")
WORDS = ["vjp_bwd", "Mul", "Base", "Quant"]


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    root.mkdir()
    for name, text in {**NAMERS, "ops.py": BASE.format(accs=""), "use.py": CALLER}.items():
        (root / name).write_text(text)
    return root


def searched(root, scans=None, fetch=False) -> tuple[dict, dict, dict | None]:
    """Each word's holders, every file's facts, and the record learnt."""
    search = Holders(scans)
    search.expect(WORDS)
    if fetch:
        search.prefetch((root,), WORDS[0])
        assert search._pending is not None
    found = {word: search.files(root, word) for word in WORDS}
    return found, search._files, scans._known if scans is not None else None


def test_the_child_finds_what_the_run_finds(tree, tmp_path):
    plain = searched(tree, Scans(tmp_path / "c1", (tree,)))
    fetched = searched(tree, Scans(tmp_path / "c2", (tree,)), fetch=True)
    assert fetched == plain
    assert [p.name for p, _ in plain[0]["vjp_bwd"]] == ["ops.py", "use.py"]  # not vacuous


@pytest.mark.parametrize("fault", ["raises", "killed", "garbage"])
def test_a_child_that_gives_nothing_whole_costs_only_the_time(tree, tmp_path, monkeypatch, fault):
    plain = searched(tree, Scans(tmp_path / "c1", (tree,)))
    real_start = prefetch.start

    def faulty(child):
        if fault == "raises":
            return real_start(lambda: 1 / 0)
        if fault == "garbage":
            return real_start(lambda: ("not", "an answer"))
        started = real_start(child)
        os.kill(started.pid, signal.SIGKILL)
        return started

    monkeypatch.setattr(prefetch, "start", faulty)
    assert searched(tree, Scans(tmp_path / "c2", (tree,)), fetch=True) == plain


def test_a_pass_nobody_asks_for_is_stopped(tree):
    search = Holders()
    search.expect(WORDS)
    search.prefetch((tree,), WORDS[0])
    pid = search._pending.pid
    search.close()
    assert search._pending is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left


def test_no_fork_beside_another_thread(tree):
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not prefetch.can_fork()
        search = Holders()
        search.expect(WORDS)
        search.prefetch((tree,), WORDS[0])
        assert search._pending is None
        assert [p.name for p, _ in search.files(tree, "vjp_bwd")] == ["ops.py", "use.py"]
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize("caller", [CALLER, "x = 1\n"])
def test_a_serial_run_decides_on_the_child_s_pass_as_on_its_own(tree, tmp_path, monkeypatch, caller):
    """The use in another file found by the child's pass renames the rule,
    as the run's own pass does; without it, the accumulators."""
    (tree / "use.py").write_text(caller)
    jobs = [Job(p, p.relative_to(tree).as_posix(), tree) for p in walk(tree)]
    options = Options(target=(0, 10, 0), strategy="accum")
    alone = run(jobs, options, in_place=False, workers=1)
    answers = []
    monkeypatch.setattr(
        prefetch.Pass, "answer", lambda self, real=prefetch.Pass.answer: answers.append(real(self)) or answers[-1]
    )
    forked = run(jobs, options, in_place=False, workers=2)
    assert len(answers) == 1 and answers[0] is not None  # the child's pass, adopted
    assert [(o.file, o.diff, o.findings, o.changes) for o in forked] == [
        (o.file, o.diff, o.findings, o.changes) for o in alone
    ]
    diff = {o.file: o.diff for o in forked}["ops.py"]
    assert ("def vjp_bwd_retval(self, res, g):" in diff) == (caller == CALLER)


def test_an_in_place_run_makes_its_own_pass(tree, monkeypatch):
    """Files it writes would reach the child changed: no child."""
    monkeypatch.setattr(prefetch, "start", lambda child: pytest.fail("forked for an in-place run"))
    jobs = [Job(p, p.relative_to(tree).as_posix(), tree) for p in walk(tree)]
    run(jobs, Options(target=(0, 10, 0), strategy="accum"), in_place=True, workers=2)
    assert "def vjp_bwd_retval(self, res, g):" in (tree / "ops.py").read_text()
