"""An in-place run's writes, one class family at a time: whole families or nothing.

A base renamed in one file and its subclass left in another no longer
imports (or recurses, through ``super().vjp_bwd``). So workers only stage
each file's new bytes (``Originals.stage``); the parent writes them in
units, the files linked through their classes (``tree.class_links``), each
once every file of it is migrated. A unit's writes wait out Ctrl-C and SIGTERM (the
signal stops the run between units), a write error in one file puts back
the unit's files written before it, and a journal in the project root
(``sources.journal``) lets ``--recover`` put back a unit cut off by SIGKILL.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import SourceError
from ..sources.files import FileError, SourceFile, check_regular, signals_deferred, write_atomic
from ..sources.journal import Journal, root_of
from ..tree.class_links import groups

if TYPE_CHECKING:
    from ..core.model import Outcome
    from .state import Job, Run

# Tests only: "write-error:N" fails the Nth write of the run; "hold:N:FILE"
# creates FILE after the Nth write and waits there (inside its unit) for a
# signal; "step:NAME:FILE" does so at a step of the journal (``journal.STEPS``,
# "write-N" after the unit's Nth write).
FAULT = "HIJAX_MIGRATE_FAULT"


class Units:
    """The run's files to migrate in units; each unit is written once the
    outcome of every file in it is in (``heard``), while the rest go on."""

    def __init__(self, run: Run, jobs: list[Job]):
        self.run, self.jobs = run, {job.display: job for job in jobs}
        texts = {job.display: _bytes(run, job) for job in run.jobs if job.path.suffix in (".py", ".pyi")}
        self.units = groups(texts, list(self.jobs))
        self.unit_of = {name: index for index, unit in enumerate(self.units) for name in unit}
        self.heard_of: dict[int, list[Outcome]] = {}
        self.journal = Journal(run.journal_root or root_of(Path.cwd()))
        self.fault = _Fault(os.environ.get(FAULT, ""))

    def heard(self, outcome: Outcome) -> None:
        index = self.unit_of.get(outcome.file)
        if index is None:
            return
        arrived = self.heard_of.setdefault(index, [])
        arrived.append(outcome)
        if len(arrived) == len(self.units[index]):
            self._write(arrived)

    def _write(self, arrived: list[Outcome]) -> None:
        """A unit's files written; none where one of them that changes could
        not be staged (its original not kept aside: a full TMPDIR, ``ulimit -f``)."""
        staged = [member for member in map(self._staged, arrived) if member is not None]
        failed = next((outcome for outcome in arrived if outcome.changed and outcome.error), None)
        if failed is not None and staged:
            _refused([(None, None, outcome) for outcome in (failed, *(o for _, o, _ in staged))], failed, failed.error)
        elif staged:
            with _held() as noted:
                self.fault.noted = noted
                _write_unit(self.run, self.journal, staged, self.fault)

    def _staged(self, outcome: Outcome) -> tuple[Job, Outcome, bytes] | None:
        job = self.jobs[outcome.file]
        data = self.run.originals.staged(job.path) if outcome.changed and not outcome.error else None
        return None if data is None else (job, outcome, data)


_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _held():
    """Ctrl-C and SIGTERM wait for the unit: blocked, and one that Python had
    caught but not yet handled only noted; each is raised again after."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        with signals_deferred():
            yield noted
        return
    # Blocked in this thread only: one sent to the process may reach another
    # thread (a pool's), and Python then runs its handler here: it is noted.
    previous = {sig: signal.signal(sig, lambda signum, frame: noted.append(signum)) for sig in _SIGNALS}
    try:
        with signals_deferred():
            yield noted
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(noted):
            signal.raise_signal(sig)


def _bytes(run: Run, job: Job) -> bytes:
    """The file as found; nothing for what is not a regular file of a sane
    size (a FIFO would block: its read reports it)."""
    try:
        check_regular(job.path)
        return run.originals.read_bytes(job.path)
    except (OSError, FileError):
        return b""


def _write_unit(run: Run, journal: Journal, members: list[tuple[Job, Outcome, bytes]], fault) -> None:
    """The unit's files written, or (on a write error) none of them."""
    sources = [
        (SourceFile(job.path, run.originals.read_bytes(job.path), "", ""), data, outcome)
        for job, outcome, data in members
    ]
    journal = _begun(journal, sources, fault)
    written = []
    for source, data, outcome in sources:
        try:
            fault.before_write()
            write_atomic(source, data)
        except FileError as error:
            _put_back(journal, written, sources, outcome, str(error))
            return
        written.append((source, data))
        fault.after_write()
        fault.step(f"write-{len(written)}")
    for _, _, outcome in sources:
        outcome.written = True
    if journal is not None:
        journal.end(fault.step)


def _begun(journal: Journal, sources: list, fault: _Fault) -> Journal | None:
    """The journal, begun for a unit of several files; None for one file
    (its write is whole by itself), or where the journal cannot be written
    (a read-only root, a full disk): the unit is then put back on a signal
    or a write error, though not after SIGKILL."""
    if len(sources) < 2:
        return None
    try:
        journal.begin([(source.path, source.raw, data) for source, data, _ in sources], fault.step)
    except (OSError, SourceError):
        if not journal.pending():  # never one this run did not write
            journal.end()
        return None
    return journal


def _put_back(journal: Journal | None, written: list, sources: list, failed: Outcome, reason: str) -> None:
    """A write failed: the unit's files written before it get their original bytes back."""
    problems = []
    for source, data in written:
        try:
            write_atomic(SourceFile(source.path, data, "", ""), source.raw)
        except FileError as error:
            problems.append(f"{source.path}: {error}")
    if problems:  # the journal stays: --recover finishes the job
        reason += f"; putting back the files of its family failed ({'; '.join(problems)})" + (
            "; run hijax-migrate --recover" if journal is not None else ""
        )
    elif journal is not None:
        journal.end()
    _refused(sources, failed, reason)


def _refused(sources: list, failed: Outcome, reason: str) -> None:
    names = ", ".join(outcome.file for _, _, outcome in sources)
    for _, _, outcome in sources:
        if outcome is failed:
            outcome.error = f"{reason}; its family ({names}) is left as it was"
        else:
            outcome.error = f"not written: {failed.file}, of the same family, could not be written; left as it was"


def tell_written(outcomes: list[Outcome]) -> None:
    """The files an interrupted run wrote (each with its whole family)."""
    written = [outcome.file for outcome in outcomes if outcome.written]
    shown = ", ".join(written[:10]) + (f" and {len(written) - 10} more" if len(written) > 10 else "")
    print(
        f"hijax-migrate: interrupted; {len(written)} files written, each with every file of its "
        f"family{': ' + shown if written else ''}",
        file=sys.stderr,
        flush=True,
    )


class _Fault:
    """The fault a test asks for (``FAULT``); none in a real run."""

    def __init__(self, spec: str):
        kind, _, rest = spec.partition(":")
        number, _, self.marker = rest.partition(":")
        self.kind, self.at, self.count = kind, int(number) if number.isdigit() else 0, 0
        self.name = number  # the step a "step" fault holds at
        self.noted: list[int] = []  # the signals noted while the unit is written

    def before_write(self) -> None:
        self.count += 1
        if self.kind == "write-error" and self.count == self.at:
            raise FileError(f"cannot write: injected write error ({FAULT})")

    def after_write(self) -> None:
        if self.kind == "hold" and self.count == self.at:
            self._hold()

    def step(self, name: str) -> None:
        """A step of the journal (``journal.STEPS``) is reached."""
        if self.kind == "step" and name == self.name:
            self._hold()

    def _hold(self) -> None:
        Path(self.marker).touch()
        deadline = time.monotonic() + 120
        while not (signal.sigpending() or self.noted) and time.monotonic() < deadline:
            time.sleep(0.005)  # a signal is held back until the unit is written
