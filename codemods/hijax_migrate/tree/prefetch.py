"""A serial run's first pass of the tree, made by a forked child while the
run imports libcst.

A run that migrates a few files in one process (a pre-push hook, a
``--changed-since``, a file or two named) imports libcst (0.2 s) for the
first, and its rules then search the whole tree for the uses of ``vjp_bwd``
and the subclasses of the primitives met: a read of every file (0.1 to
0.2 s on 3,000). A child forked before the import makes that pass on the
other core, as the run would make it, and hands over what it found and
what the stat record learnt. Whatever goes wrong in it (a crash, a kill,
garbage on the pipe) costs only the time: the run makes the pass itself.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys


def can_fork() -> bool:
    """Only where ``multiprocessing`` forks too (not macOS, whose system
    libraries are not fork-safe), and never beside another thread (it may
    hold a lock the child would wait on forever)."""
    threading = sys.modules.get("threading")
    alone = threading is None or threading.active_count() == 1
    return hasattr(os, "fork") and sys.platform != "darwin" and alone


class Pass:
    """A pass under way in a child: ``answer()`` waits for it."""

    def __init__(self, pid: int, reader: int):
        self.pid, self.reader = pid, reader

    def answer(self):
        """What ``child`` returned, or None if the child gave nothing whole."""
        try:
            with os.fdopen(self.reader, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(self.pid, 0)
            return pickle.loads(data) if status == 0 else None
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
            return None

    def cancel(self) -> None:
        """The run needed no search: the child goes, and leaves no zombie."""
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        try:
            os.close(self.reader)
        except OSError:
            pass


def start(child) -> Pass | None:
    """Fork, run ``child()`` in the child and send back what it returns
    (pickled); None where this process may not fork."""
    if not can_fork():
        return None
    reader, writer = os.pipe()
    pid = os.fork()
    if pid:
        os.close(writer)
        return Pass(pid, reader)
    code = 1
    try:  # the child: it must never return into the run, nor flush the run's buffers
        os.close(reader)
        for ending in (signal.SIGINT, signal.SIGTERM):  # they end it, quietly (not the run's handlers)
            signal.signal(ending, signal.SIG_DFL)
        data = pickle.dumps(child(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)
