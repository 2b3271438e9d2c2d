"""``per-file-ignores``, as ruff reads its own: a table of glob patterns,
each with the rule codes (or prefixes, or names) a file it matches runs
without.

A pattern is matched as ruff matches it: against the file's absolute path,
the pattern taken relative to the configuration's folder, and against the
file's base name (``"__init__.py"`` matches every one); an initial ``!``
negates it (the file matches neither). Globs are ruff's (globset's): ``*``
and ``?`` cross folders too, ``**/`` is any number of folders (none too),
``[abc]``, ``[!a-z]``, ``{a,b}``, and ``\\`` escapes. The codes of every
pattern a file matches add up.

A family is migrated whole: a rule skipped in one file of a class family is
skipped in every file of it (``shared``, worked out over the run's files by
``run/family_files.shared_ignores``), so no family is half migrated.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PerFileIgnores:
    root: str = ""  # the folder the patterns are relative to (the configuration's)
    table: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (pattern, codes), as configured
    # (real path, codes): what a file skips for the files its classes' families reach
    shared: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.table)

    def codes_for(self, path) -> tuple[str, ...]:
        """The codes ``path`` runs without: its patterns', in the table's order,
        then its families' (``shared``), each once."""
        if not self.table:
            return ()
        found = self.own(path)
        if self.shared:
            found += self._shared.get(os.path.realpath(path), ())
        return tuple(dict.fromkeys(found))

    @functools.cached_property
    def _shared(self) -> dict[str, tuple[str, ...]]:
        return dict(self.shared)

    def own(self, path) -> tuple[str, ...]:
        """The codes of the patterns ``path`` matches."""
        absolute = os.path.abspath(path)
        name = os.path.basename(absolute)
        return tuple(
            code for pattern, codes in self.table if _matches(self.root, pattern, absolute, name) for code in codes
        )


def _matches(root: str, pattern: str, absolute: str, name: str) -> bool:
    negated = pattern.startswith("!")
    whole, base = compiled(root, pattern[1:] if negated else pattern)
    return negated != bool(whole.fullmatch(absolute) or base.fullmatch(name))


@functools.cache
def compiled(root: str, pattern: str) -> tuple[re.Pattern, re.Pattern]:
    """The pattern against absolute paths, and against base names (a pure memo).
    ValueError: not a glob (an unclosed ``[`` or ``{``, a range backwards)."""
    try:
        base = re.compile(translate(pattern), re.DOTALL)  # first: an error's place is the pattern's as written
        return re.compile(translate(os.path.normpath(os.path.join(root, pattern))), re.DOTALL), base
    except re.error as error:
        raise ValueError(error.msg) from None


def translate(glob: str) -> str:
    """A glob as a regular expression (ValueError: not a glob)."""
    out, at = [], 0
    while at < len(glob):
        piece, at = _piece(glob, at)
        out.append(piece)
    return "".join(out)


def _piece(glob: str, at: int) -> tuple[str, int]:
    """The expression of the glob's piece at ``at``, and where the next starts."""
    if glob.startswith("**/", at) and (at == 0 or glob[at - 1] == "/"):
        return "(?:.*/)?", at + 3  # any folders, none too
    char = glob[at]
    if char == "*":
        return ".*", at + (2 if glob.startswith("**", at) else 1)
    if char == "?":
        return ".", at + 1
    if char == "[":
        return _class(glob, at)
    if char == "{":
        return _alternatives(glob, at)
    if char == "\\" and at + 1 < len(glob):
        return re.escape(glob[at + 1]), at + 2
    return re.escape(char), at + 1


def _class(glob: str, at: int) -> tuple[str, int]:
    """``[abc]``, ``[a-z]``, ``[!abc]`` (or ``[^abc]``); a ``]`` first is a member."""
    start = at + 1 + (glob[at + 1 : at + 2] in ("!", "^"))
    end = glob.find("]", start + 1)
    if end < 0:
        raise ValueError(f"unclosed character class at {at}")
    members = "".join(char if char == "-" else re.escape(char) for char in glob[start:end])
    return f"[{'^' if start > at + 1 else ''}{members}]", end + 1


def _alternatives(glob: str, at: int) -> tuple[str, int]:
    """``{a,b}``: either (not nested, as globset)."""
    end = glob.find("}", at)
    if end < 0 or "{" in glob[at + 1 : end]:
        raise ValueError(f"unclosed or nested alternatives at {at}")
    return "(?:" + "|".join(translate(choice) for choice in glob[at + 1 : end].split(",")) + ")", end + 1
