"""``--black``: black formats the lines the migration changed, and only those.

black's own line-ranges support does the formatting; the project's
``[tool.black]`` settings (found from the file upwards, as black finds them)
decide the style. black is imported only when asked for.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from .errors import MigrationError


def changed_lines(old: str, new: str) -> list[tuple[int, int]]:
    """1-based, inclusive line ranges of ``new`` that are not in ``old``."""
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    return [(j1 + 1, j2) for tag, _, _, j1, j2 in matcher.get_opcodes()
            if tag in ("replace", "insert") and j2 > j1]


def black_mode(path: Path):
    import black

    found = black.find_pyproject_toml((str(path),))
    config = black.parse_pyproject_toml(found) if found else {}
    return black.Mode(
        target_versions={black.TargetVersion[v.upper()] for v in config.get("target_version", ())},
        line_length=config.get("line_length", black.DEFAULT_LINE_LENGTH),
        string_normalization=not config.get("skip_string_normalization", False),
        magic_trailing_comma=not config.get("skip_magic_trailing_comma", False),
        preview=config.get("preview", False),
        is_pyi=path.suffix == ".pyi",
    )


def format_changed(old: str, new: str, path: Path) -> str:
    ranges = changed_lines(old, new)
    if not ranges:
        return new
    try:
        import black
    except ImportError as error:
        raise MigrationError("--black needs black: pip install 'hijax-migrate[black]'") from error
    try:
        return black.format_file_contents(new, fast=False, mode=black_mode(path), lines=ranges)
    except black.NothingChanged:
        return new
    except Exception as error:  # black's own parse or safety-check failures
        raise MigrationError(f"black could not format the changed lines: {error}") from error
