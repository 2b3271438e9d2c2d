"""Worker processes for a parallel run: started, rebuilt when one dies, stopped.

A worker can die under the tool: libcst's native parser crashes (a
segmentation fault, not an exception) on some valid code. The file it was on
is reported, a new pool takes over, and the other files are processed.
Workers never outlive the run: each ends when its parent dies.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait as connection_wait

from .files import signals_deferred

CRASHED = "the parser crashed on this file (its worker process died); left unchanged"
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """SIGTERM this worker when ``parent`` dies. SIGTERM waits while a file is
    being written (see ``files.signals_deferred``), so that write completes."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the watcher alone does it
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    # Started with SIGTERM blocked, the watcher never takes it: the signal
    # goes to the main thread, which holds it back while it writes.
    with signals_deferred():
        threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class WorkerPool:
    """A process pool that survives the death of a worker."""

    def __init__(self, workers: int, initializer, initargs: tuple):
        self.workers, self._init = workers, (initializer, initargs)
        self._executor, self._closing = self._start(), None

    def _start(self) -> ProcessPoolExecutor:
        initializer, initargs = self._init
        return ProcessPoolExecutor(self.workers, initializer=initializer,
                                   initargs=(os.getpid(), *initargs))

    def warm_up(self) -> None:
        """Start every worker now: they import libcst while the parent scans."""
        for _ in range(self.workers):
            self._executor.submit(int)

    def map(self, fn, items: list, on_crash):
        """``fn(item)`` for each item, yielded in order. A batch at most twice
        the pool is in flight, so when a worker dies only those few are suspects:
        each is rerun alone, and ``on_crash(item)`` stands for the one that kills."""
        done: dict[int, object] = {}
        pending: dict = {}
        following = 0
        for index in range(len(items)):
            while following < len(items) and len(pending) < 2 * self.workers:
                pending[self._executor.submit(fn, items[following])] = following
                following += 1
            while index not in done:
                self._settle(fn, items, pending, done, on_crash)
            yield done.pop(index)

    def _settle(self, fn, items, pending, done, on_crash) -> None:
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        broken = []
        for future in finished:
            index = pending.pop(future)
            try:
                done[index] = future.result()
            except BrokenProcessPool:
                broken.append(index)
        if broken:  # every other future in flight failed with it
            broken += [pending.pop(future) for future in list(pending)]
            self._restart()
            for index in sorted(broken):
                done[index] = self._alone(fn, items[index], on_crash)

    def _alone(self, fn, item, on_crash):
        try:
            return self._executor.submit(fn, item).result()
        except BrokenProcessPool:
            self._restart()
            return on_crash(item)

    def _restart(self) -> None:
        self.close()
        self._executor, self._closing = self._start(), None

    def close(self, now: bool = False) -> None:
        """Wait for the files in progress; with ``now``, end the workers at
        once (SIGTERM: a write in progress still completes first). Either
        wait can be cut short by Ctrl-C, and ``close(now=True)`` called again."""
        if self._closing is None:  # the workers and the thread that feeds them, kept to wait for
            executor = self._executor
            self._closing = (list((executor._processes or {}).values()), executor._executor_manager_thread)
            executor.shutdown(wait=False, cancel_futures=True)
        processes, manager = self._closing
        if now:
            for process in processes:
                if process.is_alive():
                    process.terminate()
        # The workers' ends are waited for here, where Ctrl-C interrupts
        # cleanly: Ctrl-C in Thread.join marks a running thread as ended
        # (bpo-45274), and a second shutdown then closes pipes under it.
        remaining = [process.sentinel for process in processes]
        while remaining:
            ready = connection_wait(remaining)
            remaining = [sentinel for sentinel in remaining if sentinel not in ready]
        if manager is not None:
            with signals_deferred():  # the workers are gone: this ends at once
                manager.join()
