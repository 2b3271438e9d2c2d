"""What another file's migration does with its classes' rules.

A call in one file follows a rule renamed in another only when that file's
own migration renames it. The answer is not guessed from a summary: the
other file is migrated (its text on disk, with an index of its own, once a
run), so every reason it may keep or convert a rule instead (structured
residuals, value uses, fixtures, conflicts, refusals) is the same on both
sides. That migration says what it renames as data (``FileReport.renamed``,
set by HJX001 where it renames), never in the words of its changes.

HJX001's family planner (``rules/bwd_returns_cotangents/families.py``) is
its only asker today, yet it lives here, not in that rule's package: the run
(``run/state.py``) and the engine make a run's one ``Decider`` and hand it to
every rule in its ``FileContext``, and they name no rule's package (the
registry is the only list of rules). What it knows of HJX001 is the report's
``renamed``, which the rule fills. The same migration says which of its classes
a comment there leaves alone (``FileReport.marked``, set by ``engine/suppress.py``):
a family is left alone in every file where one of its classes is.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.model import FileReport


class Decider:
    """The cross-file questions of a run (or of a review after it), each answered
    once. ``migrate``: how another file is migrated, ``migrate(code, path,
    options, project, module)`` (the engine's ``migrate_source``; ``project``:
    that file's view of the tree), given by whoever makes the decider: this
    layer never imports the engine."""

    def __init__(self, migrate):
        self.migrate = migrate
        self._reports: dict[str, FileReport] = {}  # module -> its migration's report

    def renamed_rules(self, project, options, module: str) -> frozenset[str]:
        """Qualified names of ``module``'s classes whose ``vjp_bwd`` its migration
        renames; the file asking (``project``, its view of the tree) is marked as resting on it."""
        return frozenset(self._asked(project, options, module).renamed)

    def marked(self, project, options, module: str) -> dict[str, int]:
        """``module``'s classes that a comment in it leaves alone (``# hijax-migrate:
        skip``, ``# noqa: HJX001``), each with the comment's line: what that file's
        own migration says (``FileReport.marked``), so both sides decide alike."""
        return self._asked(project, options, module).marked

    def fixed_unsafely(self, project, options, module: str) -> bool:
        """Does ``module``'s migration carry an unsafe fix (``engine/unsafe.py``), proposed or applied?"""
        return any(f.fix is not None for f in self._asked(project, options, module).findings)

    def _asked(self, project, options, module: str) -> FileReport:
        project.answers.volatile = True  # the answer rests on what that migration rests on
        if module not in self._reports:
            self._reports[module] = FileReport(module)  # asked again while deciding (a cycle): nothing followed
            self._reports[module] = self._report(project, options, module)
        return self._reports[module]

    def _report(self, project, options, module: str):
        """``module``'s migration's report (an empty one for a file left as it is)."""
        from ..analysis.index import Index
        from ..analysis.project import view_of
        from ..core.errors import MigrationError, SourceError
        from ..sources.files import read_source

        path = project.find(module)
        if path is None:
            return FileReport(module)
        # an index of its own (the run's reads of the tree), and that file's view of it
        other = view_of(Index(tuple(project.extra_bases), project.roots, project.reads, project.walked, decider=self))
        try:
            text = read_source(path, as_found=project.reads.originals).text
            own = replace(options.for_file(path), black=False, classes=None)  # that file's selection, not the asker's
            result = self.migrate(text, str(path), own, other, module)
        except (SourceError, MigrationError, RecursionError):
            return FileReport(str(path))  # a file left as it is renames nothing
        return result.report
