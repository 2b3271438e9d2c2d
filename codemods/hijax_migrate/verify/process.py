"""Running CMD: in a process group of its own, its output to a log, stopped
with all its children at the timeout or on Ctrl-C.

The group is the unit: a test runner's workers and the programs its tests
start are in it, so stopping the group leaves nothing behind (a program that
leaves the group on purpose, by ``setsid``, is beyond reach). SIGTERM first,
so that they may clean up, then SIGKILL for what is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError
from .invocation import Side

GRACE = 3.0  # seconds between SIGTERM and SIGKILL


@dataclass(frozen=True)
class Ran:
    code: int | None  # None: stopped at the timeout
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.code is None


def run(side: Side, log: Path, timeout: float) -> Ran:
    """CMD run to its end, or stopped at ``timeout`` seconds; Ctrl-C stops it
    (and its group) before the interrupt goes on up."""
    began, process = time.monotonic(), None
    with open(log, "wb") as out:
        try:
            with held_interrupt():  # Ctrl-C while Popen runs would lose the started group
                process = _start(side, out)
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            code = None
        finally:  # a normal end, the timeout or Ctrl-C: nothing of the group outlives the run
            if process is not None:
                stop(process)
    return Ran(code, time.monotonic() - began)


def _start(side: Side, out) -> subprocess.Popen:
    try:
        return subprocess.Popen(
            side.words,
            cwd=side.cwd,
            env=side.env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as error:
        raise UsageError(
            f"--verify: cannot start {side.words[0]!r} ({side.name} the migration, "
            f"in {side.cwd}): {error.strerror or error}"
        ) from None


def stop(process: subprocess.Popen) -> None:
    """The process's group stopped: SIGTERM, a grace period, SIGKILL, then
    waited for until none of its processes is left running. A second Ctrl-C
    meanwhile is ignored: the first is being acted on."""
    group = process.pid  # start_new_session: the leader's pid is the group's id
    with uninterrupted():
        if _signal(group, signal.SIGTERM):
            _wait_gone(group, GRACE)
            _signal(group, signal.SIGKILL)
        process.wait()
        _wait_gone(group)


@contextlib.contextmanager
def uninterrupted():
    """SIGINT ignored for the block (from the main thread, where Python lets it be set)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def held_interrupt():
    """SIGINT noted during the block and raised as KeyboardInterrupt after it.
    A handler, not SIG_IGN: a started program would inherit an ignored SIGINT."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard = []
    previous = signal.signal(signal.SIGINT, lambda *_: heard.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if heard:
        raise KeyboardInterrupt


def _signal(group: int, signum: int) -> bool:
    try:
        os.killpg(group, signum)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def members(group: int) -> list[int]:
    """The group's processes still running (zombies, already dead, left out);
    read from /proc, empty where there is none."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[2] == str(group) and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _wait_gone(group: int, limit: float = 10.0) -> None:
    """SIGKILL is delivered, not yet acted on, when killpg returns: wait
    (bounded) until the kernel has ended every process of the group."""
    deadline = time.monotonic() + limit
    while members(group) and time.monotonic() < deadline:
        time.sleep(0.02)
