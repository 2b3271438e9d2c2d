"""``--interactive``: the changes of each file, one at a time, as
``git add -p`` offers hunks.

A change is everything the migration does to one class family of the file
(a base and its subclasses: their methods, the calls they rename), or the
module-wide renames of a file: a unit that is valid on its own. Only accepted units are migrated, by the same engine, so
the written file parses and a second run proposes only what was skipped.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from ..core.model import Options, Outcome
from ..run.runner import failures_of, migrate_document, new_bytes
from ..run.state import Job
from ..sources.files import read_source, write_atomic
from ..sources.notebooks import cell_diff
from .report import colorize

HELP = """\
y - apply this change
n - skip this change
a - apply this change and every later one in this file
d - skip this change and every later one in this file
q - quit: skip this change and every later one (what was applied is written)
? - print this help"""
ANSWERS = "y,n,a,d,q,?"


@dataclass
class Review:
    options: Options
    project: object
    ask: object = input  # prompt -> answer; EOFError means quit
    color: bool = False
    quit: bool = False

    def file(self, job: Job, outcome: Outcome) -> Outcome:
        """Review one file's changes; write the accepted ones."""
        if not outcome.changes:
            return outcome  # its warnings and errors stand
        if self.quit:
            return replace(outcome, changes=[], diff="")
        failed = replace(outcome, changes=[], diff="")
        with failures_of(failed):  # as in a run: this file's failure, reported
            source = read_source(job.path)
            accepted = self._choose(job, source.text, self._units(job, source.text, outcome))
            return self._write(job, source, outcome, accepted)
        return failed

    def _units(self, job: Job, text: str, outcome: Outcome) -> list[frozenset[str]]:
        """Changed classes, a family (base and subclasses) at a time, then module-wide renames."""
        probe = migrate_document(text, job, replace(self.options, classes=frozenset()), self.project)
        family = probe.report.families
        units: dict[str, set[str]] = {}
        for name in _units(outcome):
            units.setdefault(family.get(name, name) if name else "", set()).add(name)
        return [frozenset(unit) for unit in units.values()]

    def _choose(self, job: Job, text: str, units: list[frozenset[str]]) -> set[str]:
        accepted: set[str] = set()
        for index, unit in enumerate(units, 1):
            result = migrate_document(text, job, replace(self.options, classes=unit), self.project)
            diff = cell_diff(job.display, text, result.code)
            actions = "; ".join(dict.fromkeys(c.action for c in result.report.changes))
            names = ", ".join(sorted(unit)) if unit != {""} else "module-wide renames"
            print(f"\n({index}/{len(units)}) {job.display}: {names}: {actions}")
            sys.stdout.write(colorize(diff) if self.color else diff)
            answer = self._answer()
            if answer in ("y", "a"):
                accepted |= unit
            if answer == "a":
                accepted.update(name for later in units[index:] for name in later)
            if answer in ("a", "d", "q"):
                break
        return accepted

    def _answer(self) -> str:
        while True:
            try:
                answer = self.ask(f"Apply this change [{ANSWERS}]? ").strip().lower()[:1]
            except EOFError:
                answer = "q"
            if answer == "q":
                self.quit = True
            if answer in ("y", "n", "a", "d", "q"):
                return answer
            print(HELP)

    def _write(self, job: Job, source, outcome: Outcome, accepted: set[str]) -> Outcome:
        if not accepted:
            return replace(outcome, changes=[], diff="")
        options = replace(self.options, classes=frozenset(accepted))
        done = Outcome(job.display)  # written through the checks a run's writes pass
        data = new_bytes(source, job, done, lambda text, job: migrate_document(text, job, options, self.project))
        if data is not None:
            write_atomic(source, data)
        return replace(outcome, changes=done.changes, written=data is not None, diff=done.diff)


def _units(outcome: Outcome) -> list[str]:
    """Classes changed (and "" for module-wide renames), in the order of their first line."""
    first: dict[str, int] = {}
    for change in sorted(outcome.changes, key=lambda c: c.line):
        first.setdefault(change.cls, change.line)
    return list(first)
