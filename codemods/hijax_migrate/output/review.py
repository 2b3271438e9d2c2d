"""``--interactive``: the changes of each file, one at a time, as
``git add -p`` offers hunks.

A change is everything the migration does to one class family of the file
(a base and its subclasses: their methods, the calls they rename), or the
module-wide renames of a file: a unit that is valid on its own. Only accepted units are migrated, by the same engine, so
the written file parses and a second run proposes only what was skipped.

With ``--unsafe-fixes``, a file whose migration with its unsafe fixes differs
from its safe one (a refusal's fix, or a rename that follows a base's fix in
another file) is first offered that whole, marked unsafe with the reason it is
not proven: accepted, the file is written as that migration gives it (its safe
changes with it); declined, its safe changes are offered one by one. A file so
written is read as found by the files after it, as in an ``--in-place
--unsafe-fixes`` run: a subclass elsewhere is then offered the rename that
follows the fix.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from ..core.model import Options, Outcome, Result
from ..engine.unsafe import REASON
from ..run.runner import failures_of, migrate_document, new_bytes
from ..run.state import Job
from ..sources.files import read_source, write_atomic
from ..sources.notebooks import cell_diff
from ..sources.originals import Originals
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
    # ``--unsafe-fixes``: each file's unsafe migration is offered first, decided in this view of the
    # tree of its own (another file's answers differ with the fixes); ``options`` are the safe ones
    unsafe: object = None

    def file(self, job: Job, outcome: Outcome) -> Outcome:
        """Review one file's changes; write the accepted ones."""
        if not outcome.changes and self.unsafe is None:
            return outcome  # its warnings and errors stand (a file may follow another's unsafe fix)
        if self.quit:
            return replace(outcome, changes=[], diff="")
        failed = replace(outcome, changes=[], diff="")
        with failures_of(failed):  # as in a run: this file's failure, reported
            source = read_source(job.path)
            answer, fixed = self._offer_unsafe(job, source.text) if self.unsafe is not None else ("n", None)
            if answer in ("y", "a"):
                return self._write_fixed(job, source, outcome, fixed)
            if self.unsafe is not None:  # the fixes were offered here: none is hidden
                outcome = replace(outcome, findings=[replace(f, fix=None) for f in outcome.findings])
            if answer in ("d", "q") or not outcome.changes:
                return replace(outcome, changes=[], diff="")
            accepted = self._choose(job, source.text, self._units(job, source.text, outcome))
            return self._write(job, source, outcome, accepted)
        return failed

    def _offer_unsafe(self, job: Job, text: str) -> tuple[str, Result | None]:
        """The file's migration with its unsafe fixes, where it differs from the safe one, offered
        whole and marked unsafe: the answer ("n" where there is none), and that migration."""
        fixed = migrate_document(text, job, replace(self.options, unsafe_fixes=True), self.unsafe)
        if fixed.code == migrate_document(text, job, self.options, self.project).code:
            return "n", None
        fixes = list(dict.fromkeys(f.fix for f in fixed.report.findings if f.fix is not None and f.fix.applied))
        said = "; ".join(fix.message for fix in fixes) or "a rename that follows an unsafe fix"
        print(f"\n{job.display}: UNSAFE FIX, not proven: {said}")
        print(f"  why it is unsafe: {fixes[0].reason if fixes else REASON}")
        print("  accepting it writes the file as shown, its safe changes with it")
        diff = cell_diff(job.display, text, fixed.code)
        sys.stdout.write(colorize(diff) if self.color else diff)
        return self._answer(), fixed

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

    def _write_fixed(self, job: Job, source, outcome: Outcome, fixed: Result) -> Outcome:
        """The file as its migration with its unsafe fixes gave it (``fixed``, of ``source``'s text),
        through a run's checks; the refusals the fixes answer are its notes now."""
        done = Outcome(job.display)
        data = new_bytes(source, job, done, lambda text, job: fixed)
        if data is not None:
            self._keep_as_found(source)
            write_atomic(source, data)
        return replace(outcome, changes=done.changes, findings=done.findings, written=data is not None, diff=done.diff)

    def _keep_as_found(self, source) -> None:
        """The file's bytes as found, read by the decisions of the files after it (in both views)."""
        for reads in {id(p.reads): p.reads for p in (self.project, self.unsafe)}.values():
            if reads.originals.folder is None:
                reads.originals = Originals.start()
            reads.originals.keep(source.path, source.raw)

    def finish(self) -> None:
        """The review's end: the originals it kept go."""
        for project in (self.project, self.unsafe):
            if project is not None:
                project.reads.originals.finish()


def _units(outcome: Outcome) -> list[str]:
    """Classes changed (and "" for module-wide renames), in the order of their first line."""
    first: dict[str, int] = {}
    for change in sorted(outcome.changes, key=lambda c: c.line):
        first.setdefault(change.cls, change.line)
    return list(first)
