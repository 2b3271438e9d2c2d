"""Reading and writing golden cases (black's tests/data/cases format).

A case is one file: an optional ``# flags: ...`` header line, the input, and
after a line ``# output`` the expected output. A case with no ``# output``
section must come out unchanged. An optional last section, after a line
``# findings``, lists what the run reports, one ``# LINE SEVERITY CODE message``
comment each.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
OUTPUT_MARK = "# output\n"
FINDINGS_MARK = "# findings\n"


@dataclass
class Case:
    path: Path
    flags: list[str]
    source: str
    expected: str  # equal to source for "must not change" cases
    has_output: bool
    findings: list[str] | None = None  # None: not checked


def read_case(path: Path) -> Case:
    text = path.read_text()
    flags: list[str] = []
    if text.startswith("# flags:"):
        header, text = text.split("\n", 1)
        flags = shlex.split(header[len("# flags:") :])
    text, listed, found = text.partition(FINDINGS_MARK)
    findings = [line.removeprefix("# ") for line in found.splitlines()] if listed else None
    source, mark, expected = text.partition(OUTPUT_MARK)
    return Case(path, flags, source, expected if mark else source, bool(mark), findings)


def finding_lines(findings) -> list[str]:
    return [f"{f.line} {f.severity} {f.rule} {f.message}" for f in findings]


def write_case(case: Case, actual: str, findings=()) -> None:
    header = f"# flags: {shlex.join(case.flags)}\n" if case.flags else ""
    body = case.source if actual == case.source else f"{case.source}{OUTPUT_MARK}{actual}"
    listed = "".join(f"# {line}\n" for line in finding_lines(findings))
    # a case that lists its findings keeps the section, empty or not: an empty one checks there are none
    checked = case.findings is not None or listed
    case.path.write_text(header + body + (FINDINGS_MARK + listed if checked else ""))


def all_cases() -> list[Path]:
    return sorted(GOLDEN.glob("*.py"))


TARGETS = ("0.8.1", "0.10", "0.11.1", "0.12")  # one in each era of the API


_MIGRATIONS: dict[tuple, object] = {}  # this process's full migrations of the cases' texts


def migrated(code: str, name: str, options, bases: tuple[str, ...] = ()):
    """``migrate_source(code, name, options, Project(bases))``, run once a
    process for each input: several tests of a golden case ask for the same
    one (conftest.py runs a case's tests on one worker). Each caller gets a
    copy of the result, or the MigrationError the migration raised."""
    import copy

    from hijax_migrate.analysis.project import Project
    from hijax_migrate.engine.engine import MigrationError, migrate_source

    key = (code, name, repr(options), bases)
    if key not in _MIGRATIONS:
        try:
            _MIGRATIONS[key] = migrate_source(code, name, options, Project(bases))
        except MigrationError as error:
            _MIGRATIONS[key] = error.with_traceback(None)
    kept = _MIGRATIONS[key]
    if isinstance(kept, MigrationError):
        raise copy.copy(kept)
    return copy.deepcopy(kept)


def left_alone(code: str, name: str, options, target: str, findings=()):
    """The full migration of ``code``, which a fast path passed over: it must
    leave the code byte for byte, and say nothing but the fast path's ``findings``."""
    import pytest
    from hijax_migrate.engine.engine import MigrationError

    try:
        full = migrated(code, name, options)
    except MigrationError as error:
        pytest.fail(f"passed over at {target}, but: {error}")
    assert (full.code, full.report.changes, full.report.findings) == (code, [], list(findings)), target
    return full
