"""``--interactive``: the changes of each file, one at a time, as
``git add -p`` offers hunks.

A change is everything the migration does to one class (its methods, the
calls it renames), or the module-wide renames of a file: a unit that is
valid on its own. Only accepted units are migrated, by the same engine, so
the written file parses and a second run proposes only what was skipped.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from .files import FileError, encode, read_source, write_atomic
from .model import Options
from .report import Outcome, colorize, unified_diff
from .runner import Job, migrate_document

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
        try:
            source = read_source(job.path)
            accepted = self._choose(job, source.text, _units(outcome))
            return self._write(job, source, outcome, accepted)
        except FileError as error:
            return replace(outcome, error=str(error), error_line=error.line, changes=[], diff="")

    def _choose(self, job: Job, text: str, units: list[str]) -> set[str]:
        accepted: set[str] = set()
        for index, unit in enumerate(units, 1):
            result = migrate_document(text, job, replace(self.options, classes=frozenset({unit})), self.project)
            diff = unified_diff(job.display, text, result.code)
            actions = "; ".join(dict.fromkeys(c.action for c in result.report.changes))
            print(f"\n({index}/{len(units)}) {job.display}: {unit or 'module-wide renames'}: {actions}")
            sys.stdout.write(colorize(diff) if self.color else diff)
            answer = self._answer()
            if answer in ("y", "a"):
                accepted.add(unit)
            if answer == "a":
                accepted.update(units[index:])
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
        result = migrate_document(source.text, job, replace(self.options, classes=frozenset(accepted)),
                                  self.project)
        write_atomic(source, encode(source, result.code))
        return replace(outcome, changes=result.report.changes, written=True,
                       diff=unified_diff(job.display, source.text, result.code))


def _units(outcome: Outcome) -> list[str]:
    """Classes changed (and "" for module-wide renames), in the order of their first line."""
    first: dict[str, int] = {}
    for change in sorted(outcome.changes, key=lambda c: c.line):
        first.setdefault(change.cls, change.line)
    return list(first)
