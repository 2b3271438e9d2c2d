"""The run's worker processes (``run/pool.py``): forked where the platform forks
safely, started afresh elsewhere (``run/spawned.py``); either answers in order,
survives a worker's death, carries an exception or a large answer back, and
leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import signal
import time

import pytest
from hijax_migrate.run import pool as pool_module
from hijax_migrate.run.pool import FORKS, ForkedPool
from hijax_migrate.run.runner import pool_kind
from hijax_migrate.run.spawned import SpawnedPool

POOLS = [ForkedPool, SpawnedPool]


def _start(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pids(_item) -> int:
    return os.getpid()


def _fails_on_two(item: int) -> int:
    if item == 2:
        raise ValueError(f"no {item}")
    return item


def _large(item: int) -> str:
    return str(item) * (3 << 20)  # larger than any pipe's buffer


def _dies(item: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return item


def _never_starts(parent: int) -> None:
    raise RuntimeError("a worker that cannot start")


@contextlib.contextmanager
def _opened(kind=ForkedPool, initializer=_start, workers: int = 2):
    """A pool, closed however the block ends (its workers gone)."""
    pool = kind(workers, initializer, ())
    try:
        yield pool
    finally:
        pool.close()


def test_the_pool_forks_where_the_platform_forks_safely():
    assert FORKS == (hasattr(os, "fork") and os.uname().sysname != "Darwin")
    with _opened(pool_kind()) as pool:
        assert isinstance(pool, ForkedPool if FORKS else SpawnedPool)


@pytest.mark.parametrize("kind", POOLS)
def test_an_exception_of_an_item_reaches_the_caller_after_those_before_it(kind):
    with _opened(kind) as pool:
        answers = pool.map(_fails_on_two, list(range(5)), str)
        assert [next(answers), next(answers)] == [0, 1]
        with pytest.raises(ValueError, match="no 2"):
            next(answers)


@pytest.mark.parametrize("kind", POOLS)
def test_an_answer_larger_than_a_pipe_comes_whole(kind):
    with _opened(kind) as pool:
        assert list(pool.map(_large, [1, 2, 3], str)) == [_large(1), _large(2), _large(3)]


def test_a_worker_that_cannot_start_has_its_items_reported_and_the_run_ends():
    with _opened(initializer=_never_starts) as pool:
        assert list(pool.map(_pids, [1, 2, 3], lambda item: f"crashed on {item}")) == [
            "crashed on 1",
            "crashed on 2",
            "crashed on 3",
        ]


def test_every_item_a_killed_worker_was_on_is_reported_and_no_process_is_left():
    with _opened() as pool:
        assert list(pool.map(_dies, [1, 2], lambda item: f"crashed on {item}")) == ["crashed on 1", "crashed on 2"]
        workers = [worker.pid for worker in pool._running]
    for pid in workers:  # reaped: not even a zombie stays
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_each_worker_is_a_process_of_its_own_that_ends_with_the_pool():
    with _opened() as pool:
        seen = set(pool.map(_pids, list(range(20)), str))
        running = {worker.pid for worker in pool._running}
    assert seen <= running and len(running) == 2 and os.getpid() not in running
    for pid in running:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_worker_holds_no_other_worker_s_pipe(monkeypatch):
    """Else the first worker would never see its end while a later one lives."""
    with _opened(workers=3) as pool:
        pool.warm_up()
        first, *others = pool._running
        pool._end([first])  # returns only once its end is read: no other process holds its pipe
        assert all(os.waitpid(worker.pid, os.WNOHANG) == (0, 0) for worker in others)  # the others live on
        pool._running = others


def test_no_module_a_fork_does_without_is_imported_for_a_pool():
    code = (
        "import sys\n"
        "from hijax_migrate.run.runner import pool_kind\n"
        "pool = pool_kind()(2, lambda parent: None, ())\n"
        "assert list(pool.map(abs, [-1, -2], str)) == [1, 2]\n"
        "pool.close()\n"
        "print(sorted(m for m in ('multiprocessing', 'concurrent.futures') if m in sys.modules))\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("[]" if pool_module.FORKS else "['concurrent.futures', 'multiprocessing']")


@pytest.mark.skipif(not (FORKS and hasattr(os, "pidfd_open")), reason="no pidfd here: the kernel's signal, or polling")
def test_a_forked_worker_ends_with_its_parent_and_imports_no_ctypes(tmp_path):
    """A forked worker watches its parent through a pidfd: no ``ctypes`` (4 ms of each
    worker's start before) and no polling, and it is gone soon after its parent is killed."""
    import subprocess
    import sys

    said = tmp_path / "worker"
    code = (
        "import os, sys, time\n"
        "from hijax_migrate.run.pool import ForkedPool, end_with_parent\n"
        "def item(path):\n"
        "    open(path, 'w').write(f\"{os.getpid()} {'ctypes' in sys.modules}\")\n"
        "    time.sleep(300)\n"
        "pool = ForkedPool(1, end_with_parent, ())\n"
        f"list(pool.map(item, [{str(said)!r}], str))\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 120
        while not (said.exists() and said.read_text()) and time.monotonic() < deadline:
            time.sleep(0.02)
        pid, ctypes_imported = said.read_text().split()
        assert ctypes_imported == "False"
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60
    while _alive(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(int(pid)), "the worker outlived its parent"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(FileNotFoundError):  # reaped by init once gone, or a zombie for a moment
        return not open(f"/proc/{pid}/stat").read().split(") ")[1].startswith("Z")
    return False


def _dies_then_fails(item: tuple[int, str]) -> int:
    """Item 1 kills its worker, then raises when rerun alone; item 0 ends once it has."""
    index, folder = item
    marker = os.path.join(folder, "died")
    if index == 1:
        if not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        open(os.path.join(folder, "rerun"), "w").close()
        raise ValueError("rerun alone, and failed")
    deadline = time.monotonic() + 120
    while not os.path.exists(os.path.join(folder, "rerun")) and time.monotonic() < deadline:
        time.sleep(0.01)
    return index


def test_an_exception_of_an_item_rerun_alone_is_raised_in_its_turn(tmp_path):
    with _opened() as pool:
        answers = pool.map(_dies_then_fails, [(0, str(tmp_path)), (1, str(tmp_path))], str)
        assert next(answers) == 0  # item 1's rerun has failed by now: item 0 comes first all the same
        with pytest.raises(ValueError, match="rerun alone"):
            next(answers)


def test_a_spawned_worker_importing_the_main_module_starts_no_run(tmp_path):
    """Where workers are spawned (macOS, Windows), each imports ``python -m
    hijax_migrate``'s main module again, as ``__mp_main__``: that starts no run."""
    import subprocess
    import sys

    code = "import runpy\nrunpy.run_module('hijax_migrate', run_name='__mp_main__')\nprint('imported, no run')\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert (done.returncode, done.stdout) == (0, "imported, no run\n"), done.stderr
