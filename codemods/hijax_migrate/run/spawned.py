"""Worker processes started afresh, where the platform has no safe fork (macOS,
Windows): ``concurrent.futures``' pool, given the run's picklable part. The
interface is ``pool.ForkedPool``'s; a worker's death breaks the whole pool, so
every item in flight is a suspect, rerun alone on a new one.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from multiprocessing.connection import wait as connection_wait

from ..sources.files import signals_deferred
from .interrupts import Interrupts
from .pool import SLICE, result_of


class SpawnedPool:
    """A process pool of spawned workers that survives the death of one."""

    def __init__(self, workers: int, initializer, initargs: tuple):
        self.workers, self._init = workers, (initializer, initargs)
        self.interrupts = Interrupts()
        self._executor, self._closing = self._start(), None

    def _start(self) -> ProcessPoolExecutor:
        initializer, initargs = self._init
        return ProcessPoolExecutor(
            self.workers, get_context("spawn"), initializer=initializer, initargs=(os.getpid(), *initargs)
        )

    def warm_up(self) -> None:
        """Start every worker now: they import libcst while the parent scans."""
        for _ in range(self.workers):
            self._executor.submit(int)

    def map(self, fn, items: list, on_crash):
        """``fn(item)`` for each item, yielded in order. At most twice the
        pool's items are in flight, so when a worker dies only those few are
        suspects: each is rerun alone, and ``on_crash(item)`` stands for the one
        that kills. The next item is sent as soon as one is done, whichever it
        is: an item that takes long never leaves the other workers idle. An
        exception ``fn`` raises is raised in its item's turn."""
        done: dict[int, tuple] = {}
        pending: dict = {}
        following = 0
        for index in range(len(items)):
            while index not in done:
                while following < len(items) and len(pending) < 2 * self.workers:
                    try:
                        future = self._executor.submit(fn, items[following])
                    except BrokenProcessPool:  # a death not settled yet: the futures in flight say whose
                        if not pending:
                            self._restart()
                        break
                    pending[future] = following
                    following += 1
                if pending:
                    self._settle(fn, items, pending, done, on_crash)
            yield result_of(done.pop(index))

    def _wait(self, futures) -> set:
        """The futures done: waited for in slices, Ctrl-C acted on between them."""
        while True:
            with self.interrupts.counted():
                finished, _ = wait(futures, timeout=SLICE, return_when=FIRST_COMPLETED)
            self.interrupts.check()
            if finished:
                return finished

    def _settle(self, fn, items, pending, done, on_crash) -> None:
        finished = self._wait(pending)
        broken = []
        for future in finished:
            index = pending.pop(future)
            answer = _answer(future)
            if answer is None:
                broken.append(index)
            else:
                done[index] = answer
        if broken:  # every other future in flight failed with it
            broken += [pending.pop(future) for future in list(pending)]
            self._restart()
            for index in sorted(broken):
                done[index] = self._alone(fn, items[index], on_crash)

    def _alone(self, fn, item, on_crash) -> tuple:
        """``item`` on a pool of its own: its answer, or ``on_crash(item)``'s if it kills it."""
        try:
            future = self._executor.submit(fn, item)
        except BrokenProcessPool:
            self._restart()
            future = self._executor.submit(fn, item)
        self._wait([future])
        answer = _answer(future)
        if answer is None:
            self._restart()
            return True, on_crash(item)
        return answer

    def _restart(self) -> None:
        self._shutdown()
        self._executor, self._closing = self._start(), None

    def close(self, now: bool = False) -> None:
        """Wait for the files in progress; with ``now``, or on a second
        Ctrl-C, end the workers at once (SIGTERM: a write in progress still
        completes first). Then Ctrl-C is the caller's again."""
        try:
            self._shutdown(now)
        finally:
            self.interrupts.restore()

    def _shutdown(self, now: bool = False) -> None:
        if self._closing is None:  # the workers and the thread that feeds them, kept to wait for
            executor = self._executor
            self._closing = (list((executor._processes or {}).values()), executor._executor_manager_thread)
            executor.shutdown(wait=False, cancel_futures=True)
        processes, manager = self._closing
        remaining, ending = [process.sentinel for process in processes], False
        while remaining:
            if not ending and (now or self.interrupts.count > 1):
                ending = True
                for process in processes:
                    if process.is_alive():
                        process.terminate()
            with self.interrupts.counted():
                ready = connection_wait(remaining, timeout=SLICE)
            remaining = [sentinel for sentinel in remaining if sentinel not in ready]
        if manager is not None:
            with signals_deferred():  # the workers are gone: this ends at once
                manager.join()


def _answer(future) -> tuple | None:
    """(True, its result) or (False, the exception it raised); None: its worker died."""
    try:
        return True, future.result()
    except BrokenProcessPool:
        return None
    except Exception as error:
        return False, error
