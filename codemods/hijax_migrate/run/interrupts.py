"""Ctrl-C and SIGTERM in the parent while worker processes run.

Python raises KeyboardInterrupt wherever the main thread happens to be. Inside
the locks that concurrent.futures waits with, that can leave a lock released
twice (a RuntimeError replaces the interrupt) or, in Thread.join, a running
thread marked as ended (bpo-45274). So while a pool runs the handler counts
signals, and the first becomes KeyboardInterrupt only where the parent is not
in such a wait, or once the wait returns; later ones are only counted (the
pool reads the count to stop its workers at once).
"""

from __future__ import annotations

import contextlib
import signal
import threading

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupts:
    def __init__(self) -> None:
        self.count, self._raised, self._waiting = 0, False, False
        self._previous: dict = {}
        if threading.current_thread() is threading.main_thread():  # only there can handlers be set
            for sig in _SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:
                    self._previous[sig] = signal.signal(sig, self._handle)

    def _handle(self, signum, frame) -> None:
        self.count += 1
        if not self._waiting:
            self.check()

    def check(self) -> None:
        """KeyboardInterrupt for the first signal, once."""
        if self.count and not self._raised:
            self._raised = True
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def counted(self):
        """A wait during which signals are only counted."""
        self._waiting = True
        try:
            yield
        finally:
            self._waiting = False

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous = {}
