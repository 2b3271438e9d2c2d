"""The data a run produces and passes around: plain, light, picklable.

Kept apart from the libcst-based code so that the command line starts
without importing libcst when there is nothing to migrate.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .per_file import PerFileIgnores
from .versions import LATEST, Version

STRATEGIES = ("auto", "rename", "accum")


@dataclass(frozen=True)
class Change:
    file: str
    line: int
    cls: str
    rule: str  # code, e.g. HJX001
    name: str
    action: str
    cell: int = 0  # in a notebook: the cell's number (line is then 0), and
    cell_line: int = 0  # the line in that cell


ERROR, NOTE = "error", "note"
UNSAFE = "unsafe"  # a fix's applicability (ruff's word): it may change behaviour, written only when asked


@dataclass(frozen=True)
class Fix:
    """A rewrite proposed for a refusal, never proven (``engine/unsafe.py``): the file as the tool
    would write it with the fix (``diff``: against the file as it stands), the lines of the sites
    it renames, and why it is not proven. ``applied``: written (or to be) under ``--unsafe-fixes``."""

    message: str
    reason: str
    lines: tuple[int, ...] = ()
    diff: str = ""
    applicability: str = UNSAFE
    applied: bool = False

    def as_dict(self) -> dict:
        return {"applicability": self.applicability, "message": self.message, "reason": self.reason}


SUPPRESSED = "suppressed"  # a finding a comment in the code silenced: counted, never shown


@dataclass(frozen=True)
class Finding:
    """Something left alone, and why.

    An ``error`` is code that will not work on the target jax as it stands
    (it fails the dry run, ``--check`` and the hooks); a ``note`` is worth
    reading but may well be fine.
    """

    file: str
    line: int
    message: str
    rule: str = ""
    cell: int = 0  # as in Change
    cell_line: int = 0
    severity: str = NOTE
    # An unsafe fix proposed for it; no part of what a finding is equal to, nor of its text.
    fix: Fix | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if isinstance(self.fix, dict):  # read back from the cache, as ``dataclasses.asdict`` stored it
            object.__setattr__(self, "fix", Fix(**{**self.fix, "lines": tuple(self.fix["lines"])}))

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR


@dataclass
class Options:
    target: Version = LATEST
    strategy: str = "auto"
    only: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    extra_bases: tuple[str, ...] = ()
    black: bool = False  # format the changed lines with black
    # Review: only these classes (by qualname) are migrated, and module-wide
    # renames only if "" is among them; None migrates everything.
    classes: frozenset[str] | None = None
    per_file: PerFileIgnores = PerFileIgnores()  # the configuration's per-file-ignores
    file_skip: tuple[str, ...] = ()  # the codes they skip for the file these options are for (``for_file``)
    unsafe_fixes: bool = False  # write the unsafe fixes of refusals (``engine/unsafe.py``)

    def module_wide(self) -> bool:
        return self.classes is None or "" in self.classes

    def for_file(self, path) -> Options:
        """The options of the file at ``path``: the run's, less the rules its
        per-file-ignores name. The one place a file's selection is made; from
        any file's options, another's (the table is kept)."""
        return replace(self, file_skip=self.per_file.codes_for(path)) if self.per_file else self

    @property
    def skipped(self) -> tuple[str, ...]:
        """The rules not run: ``--ignore``'s, and the file's per-file-ignores."""
        return (*self.skip, *self.file_skip)  # ``skip`` may come as a list from a caller of the API


@dataclass
class FileReport:
    file: str
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    primitives: int = 0
    # review only: class -> its family in this file (classes joined by inheritance)
    families: dict[str, str] = field(default_factory=dict)
    # For other files' decisions, never shown nor cached: the qualified names of the
    # classes whose ``vjp_bwd`` this migration renames (HJX001, ``rules/decisions.py``).
    renamed: set[str] = field(default_factory=set)
    # Likewise: the classes a comment in this file leaves alone -> the line of that comment
    # (``engine/suppress.py``): other files' classes of their families are left alone too.
    marked: dict[str, int] = field(default_factory=dict)
    # Likewise, for the unsafe fixes (``engine/unsafe.py``): the qualified names of the classes that
    # bind hijax rule names but are no primitive, nor may be one (another protocol's): never renamed.
    apart: list[str] = field(default_factory=list)


@dataclass
class Result:
    """A migrated text and its report; in a run, with what the file's answers
    about the rest of the tree rest on (``analysis.answers.Answers``), for the cache."""

    code: str
    report: FileReport
    answers: object = None  # None: not known (a result migrated alone), never cached

    @property
    def changed(self) -> bool:
        return bool(self.report.changes)


@dataclass
class Outcome:
    """What happened to one file; small, so thousands fit in memory."""

    file: str
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    diff: str = ""
    error: str = ""
    error_line: int = 0
    written: bool = False
    primitives: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.diff)
