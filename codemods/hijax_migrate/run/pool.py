"""Worker processes for a parallel run: forked, fed, rebuilt when one dies, stopped.

A worker can die under the tool: libcst's native parser crashes (a
segmentation fault, not an exception) on some valid code. The file it was on
is reported, a new worker takes its place, and the other files are processed.
Workers never outlive the run: each ends when its parent dies.

Where the platform forks safely (``FORKS``: POSIX but macOS), each worker is a
fork of the run with two pipes of its own, one item in flight at a time: an
item goes to the first worker free, and the one a dead worker was on is the
only suspect. Nothing of ``multiprocessing`` or ``concurrent.futures`` is
imported there (30 ms of a cold check's start, before any worker can begin).
Elsewhere the run's picklable part goes to workers started afresh (``spawned``);
``runner`` picks one, and both answer ``map``, ``warm_up``, ``close`` and ``interrupts``.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import threading
import time

from ..core.process import exit_now
from ..sources.files import signals_deferred
from .interrupts import Interrupts

CRASHED = "the parser crashed on this file (its worker process died); left unchanged"
SLICE = 0.2  # seconds: the parent waits in slices, acting on a signal between them
_PR_SET_PDEATHSIG = 1
# fork is the safe default where multiprocessing makes it one (Linux and the BSDs); macOS's
# system libraries are not fork-safe, and Windows has no fork
FORKS = hasattr(os, "fork") and sys.platform != "darwin"
_HEADER = struct.Struct("!Q")  # a message's length, before its pickled bytes


def end_with_parent(parent: int) -> None:
    """SIGTERM this worker when ``parent`` dies. SIGTERM waits while a file is
    being written (see ``files.signals_deferred``), so that write completes."""
    exited = _exit_of(parent)
    if exited is None:  # no pidfd: the kernel's own signal where it has one, and a watcher polling
        _signalled_on_death()

    def watch() -> None:
        if exited is not None:
            poller = select.poll()
            poller.register(exited, select.POLLIN)
            poller.poll()  # readable once the parent has exited
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    # Started with SIGTERM blocked, the watcher never takes it: the signal
    # goes to the main thread, which holds it back while it writes.
    with signals_deferred():
        threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _exit_of(parent: int) -> int | None:
    """A pidfd of ``parent`` (Linux 5.3 and newer), readable once it has exited: no
    ``ctypes`` (4 ms of each worker's start) and no polling; None where there is none."""
    try:
        return os.pidfd_open(parent)
    except (AttributeError, OSError):  # another system, an older kernel, or the parent already gone
        return None


def _signalled_on_death() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the watcher alone does it
        pass


class _Worker:
    """A worker, as its parent sees it (a plain class: a dataclass costs the parent's start 1 ms)."""

    __slots__ = ("pid", "tasks", "results", "inbox", "doing")

    def __init__(self, pid: int, tasks: int, results: int):
        self.pid = pid
        self.tasks, self.results = tasks, results  # the pipes the parent writes items to, and reads answers from
        self.inbox = bytearray()  # bytes read, not yet a whole answer
        self.doing: int | None = None  # the index of the item it is on


class ForkedPool:
    """Forked workers, each fed one item at a time through a pipe of its own."""

    def __init__(self, workers: int, initializer, initargs: tuple):
        self.workers, self._init = workers, (initializer, initargs)
        self.interrupts = Interrupts()
        self._running: list[_Worker] = []

    def warm_up(self) -> None:
        """Start every worker now: they import what they need while the parent scans."""
        while len(self._running) < self.workers:
            self._running.append(self._fork())

    def map(self, fn, items: list, on_crash):
        """``fn(item)`` for each item, yielded in order, each sent to the first worker
        free. The item a worker dies on is rerun alone, and ``on_crash(item)`` stands
        for it if it kills that one too. An exception ``fn`` raises is raised here."""
        self.warm_up()
        done: dict[int, object] = {}
        following = 0
        for index in range(len(items)):
            while index not in done:
                for worker in self._running:
                    if worker.doing is None and following < len(items):
                        self._send(worker, following, fn, items[following])
                        following += 1
                self._settle(fn, items, done, on_crash)
            yield result_of(done.pop(index))  # an item's exception is raised in its turn

    def _send(self, worker: _Worker, index: int, fn, item) -> None:
        data = pickle.dumps((fn, item), protocol=pickle.HIGHEST_PROTOCOL)
        worker.doing = index
        try:
            _write_all(worker.tasks, _HEADER.pack(len(data)) + data)
        except OSError:  # it died before it could read: its end, then the item alone, says so
            pass

    def _settle(self, fn, items, done: dict, on_crash) -> None:
        """Wait for answers (in slices, Ctrl-C acted on between them) and take them."""
        for worker in self._ready([w for w in self._running if w.doing is not None]):
            answer = self._answer(worker)
            if answer is _DIED:
                index = worker.doing
                self._replace(worker)
                done[index] = self._alone(fn, items[index], on_crash)
            elif answer is not None:
                index, worker.doing = worker.doing, None
                done[index] = answer

    def _ready(self, busy: list[_Worker]) -> list[_Worker]:
        """The workers of ``busy`` with something to read (an answer, or their end)."""
        while True:
            ready = self._polled(busy)
            self.interrupts.check()
            if ready:
                return ready

    def _polled(self, workers: list[_Worker]) -> list[_Worker]:
        """One slice's wait, signals only counted meanwhile."""
        poller, by_fd = select.poll(), {worker.results: worker for worker in workers}
        for fd in by_fd:
            poller.register(fd, select.POLLIN)
        with self.interrupts.counted():
            return [by_fd[fd] for fd, _ in poller.poll(SLICE * 1000)]

    def _answer(self, worker: _Worker):
        """The worker's answer once whole (None: not yet; ``_DIED``: it died)."""
        chunk = os.read(worker.results, 1 << 20)
        if not chunk:
            return _DIED
        worker.inbox += chunk
        if len(worker.inbox) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(worker.inbox)
        if len(worker.inbox) < _HEADER.size + size:
            return None
        answer = pickle.loads(bytes(worker.inbox[_HEADER.size : _HEADER.size + size]))
        del worker.inbox[: _HEADER.size + size]
        return answer

    def _alone(self, fn, item, on_crash) -> tuple:
        """``item`` on a worker of its own: its answer, or ``on_crash(item)``'s if it dies."""
        worker = self._fork()
        try:
            self._send(worker, 0, fn, item)
            while True:
                self._ready([worker])
                answer = self._answer(worker)
                if answer is _DIED:
                    return True, on_crash(item)
                if answer is not None:
                    return answer
        finally:
            self._end([worker])

    def _replace(self, dead: _Worker) -> None:
        self._end([dead])
        self._running[self._running.index(dead)] = self._fork()

    def _fork(self) -> _Worker:
        tasks_read, tasks = os.pipe()
        results, results_write = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the parent's code
            for other in self._running:  # a pipe end it held would keep another worker from its end
                _close(other.tasks, other.results)
            _close(tasks, results)
            _serve(parent, self._init, tasks_read, results_write)
        _close(tasks_read, results_write)
        return _Worker(pid, tasks, results)

    def close(self, now: bool = False) -> None:
        """Wait for the items in progress; with ``now``, or on a second Ctrl-C, end
        the workers at once (SIGTERM: a write in progress still completes first).
        Then Ctrl-C is the caller's again."""
        try:
            self._end(self._running, now)
            self._running = []
        finally:
            self.interrupts.restore()

    def _end(self, workers: list[_Worker], now: bool = False) -> None:
        """Tell ``workers`` there is no more (they end after their item), drain what
        they still say, and wait for them to be gone."""
        for worker in workers:
            _close(worker.tasks)
        remaining, ending = [w for w in workers if w.results >= 0], False
        while remaining:
            if not ending and (now or self.interrupts.count > 1):
                ending = True
                for worker in remaining:
                    _terminate(worker.pid)
            for worker in self._polled(remaining):
                if not os.read(worker.results, 1 << 20):  # its end: the worker is gone
                    _close(worker.results)
                    worker.results = -1
            remaining = [w for w in remaining if w.results >= 0]
        for worker in workers:
            _reap(worker.pid)


_DIED = object()


def result_of(answer: tuple):
    """A worker's answer, (True, what ``fn`` gave) or (False, what it raised), given or raised."""
    ok, value = answer
    if not ok:
        raise value
    return value


def _serve(parent: int, init: tuple, tasks: int, results: int) -> None:
    """A worker's life: started, then each item read, done and answered until the
    parent sends no more (or is gone); never back into the code that forked it."""
    code = 1
    try:
        initializer, initargs = init
        initializer(parent, *initargs)
        while (message := _read_message(tasks)) is not None:
            fn, item = pickle.loads(message)
            _write_answer(results, fn, item)
        code = 0
    finally:
        exit_now(code)


def _write_answer(results: int, fn, item) -> None:
    try:
        answer = (True, fn(item))
    except Exception as error:  # the parent raises it, as a pool's future would
        answer = (False, error)
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an exception pickle cannot carry: its words reach the parent
        data = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
    _write_all(results, _HEADER.pack(len(data)) + data)


def _read_message(fd: int) -> bytes | None:
    header = _read_exactly(fd, _HEADER.size)
    return None if header is None else _read_exactly(fd, _HEADER.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None  # the parent closed its end, or died
        data += chunk
    return bytes(data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _close(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass


def _terminate(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
