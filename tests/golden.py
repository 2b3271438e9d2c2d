"""Reading and writing golden cases (black's tests/data/cases format).

A case is one file: an optional ``# flags: ...`` header line, the input, and
after a line ``# output`` the expected output. A case with no ``# output``
section must come out unchanged.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
OUTPUT_MARK = "# output\n"


@dataclass
class Case:
    path: Path
    flags: list[str]
    source: str
    expected: str  # equal to source for "must not change" cases
    has_output: bool


def read_case(path: Path) -> Case:
    text = path.read_text()
    flags: list[str] = []
    if text.startswith("# flags:"):
        header, text = text.split("\n", 1)
        flags = shlex.split(header[len("# flags:"):])
    source, mark, expected = text.partition(OUTPUT_MARK)
    return Case(path, flags, source, expected if mark else source, bool(mark))


def write_case(case: Case, actual: str) -> None:
    header = f"# flags: {shlex.join(case.flags)}\n" if case.flags else ""
    body = case.source if actual == case.source else f"{case.source}{OUTPUT_MARK}{actual}"
    case.path.write_text(header + body)


def all_cases() -> list[Path]:
    return sorted(GOLDEN.glob("*.py"))
