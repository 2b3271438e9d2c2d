"""``--black``: black formats the lines the migration changed, and only those.

black's own line-ranges support does the formatting; the project's
``[tool.black]`` settings (found from the file upwards, as black finds them)
decide the style. black is imported only when asked for.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from ..core.errors import MigrationError
from ..core.line_breaks import lines_of
from ..core.model import Finding


def changed_lines(old: str, new: str) -> list[tuple[int, int]]:
    """1-based, inclusive line ranges of ``new`` that are not in ``old``."""
    matcher = difflib.SequenceMatcher(None, lines_of(old), lines_of(new), autojunk=False)
    return [(j1 + 1, j2) for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("replace", "insert") and j2 > j1]


def black_mode(path: Path):
    import black

    from ..sources.black_config import black_config

    config = black_config(path)[1]
    return black.Mode(
        target_versions={black.TargetVersion[v.upper()] for v in config.get("target_version", ())},
        line_length=config.get("line_length", black.DEFAULT_LINE_LENGTH),
        string_normalization=not config.get("skip_string_normalization", False),
        magic_trailing_comma=not config.get("skip_magic_trailing_comma", False),
        preview=config.get("preview", False),
        is_pyi=path.suffix == ".pyi",
    )


def format_changed(old: str, new: str, path: Path, report=None) -> str:
    """``new`` with black's formatting on the lines not in ``old``. Where black
    would touch anything else (it re-indents a tab-indented block with spaces),
    ``new`` is kept as the migration wrote it, and a warning says so."""
    ranges = changed_lines(old, new)
    if not ranges:
        return new
    if _TAB_INDENT.search(old):
        return _unformatted(new, ranges, report, "the file is indented with tabs, which black would turn into spaces")
    try:
        import black
    except ImportError as error:
        raise MigrationError("--black needs black: pip install 'hijax-migrate[black]'") from error
    try:
        formatted = black.format_file_contents(new, fast=False, mode=black_mode(path), lines=ranges)
    except black.NothingChanged:
        return new
    except Exception as error:  # black's own parse or safety-check failures
        raise MigrationError(f"black could not format the changed lines: {error}") from error
    if not _within(new, formatted, ranges):
        return _unformatted(new, ranges, report, "black would also change lines the migration did not touch")
    return formatted


_TAB_INDENT = re.compile(r"^ *\t", re.MULTILINE)


def _within(new: str, formatted: str, ranges: list[tuple[int, int]]) -> bool:
    """Does ``formatted`` differ from ``new`` only on (or next to) the lines in
    ``ranges``? Blank lines do not count: black sets those around what it formats."""
    inside = {line for start, end in ranges for line in range(start, end + 1)}
    kept = [(n, line) for n, line in enumerate(lines_of(new), 1) if line.strip()]
    numbers, a = [n for n, _ in kept] + [0], [line for _, line in kept]
    b = [line for line in lines_of(formatted) if line.strip()]
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "insert" and not {numbers[i1 - 1] if i1 else 0, numbers[i1]} & inside:
            return False  # neither line either side of the insertion was changed
        if tag in ("replace", "delete") and not {numbers[i] for i in range(i1, i2)} <= inside:
            return False
    return True


def _unformatted(new: str, ranges, report, why: str) -> str:
    if report is not None:
        report.findings.append(
            Finding(
                report.file,
                ranges[0][0],
                f"--black not applied: {why}; the changed lines are as the migration wrote them",
            )
        )
    return new
