"""Where a rule is used elsewhere in the tree: as a value (``obj.vjp_bwd``)
or by name (``getattr(obj, "vjp_bwd")``).

Converting a rule to the accumulator form changes how it is called, and a
rename leaves a use by name behind; a use in another file of the tree,
whatever it resolves to, cannot be ruled out, so it counts. The tree is
searched once a run (as the run found it), and only when asked; only the
files whose bytes hold the rule's name are decoded and tokenized.
"""

from __future__ import annotations

import ast
import functools
import io
import os
import re
import tokenize
from pathlib import Path

from ..core.line_breaks import fed
from ..sources.files import python_name
from .cache import digest
from .holders import Holders

# Calls that reach an attribute by a string naming it.
GETTERS = frozenset({"getattr", "attrgetter", "methodcaller"})


def may_use(text: str, attr: str) -> bool:
    """Could ``text`` hold ``.attr``? A cheap superset of what tokenizing finds
    (a name with letters beyond ASCII after a dot may be ``attr`` normalised)."""
    return attribute_pattern((attr,)).search(text) is not None or (
        not text.isascii() and re.search(r"\.\s*\w*[^\x00-\x7f]", text) is not None
    )


def attribute_pattern(names) -> re.Pattern:
    """``.name`` for any of ``names``, with only blanks, line continuations,
    newlines and comments between (as in brackets). A comment runs to its
    line's end: one that could stop early would let ``# # #`` lines match in
    exponentially many ways (jax 0.11.0's docs/ffi.py took minutes)."""
    words = "|".join(re.escape(name) for name in sorted(names))
    return re.compile(rf"\.(?:\s|\\|#[^\r\n]*(?![^\r\n]))*(?:{words})\b")


def may_get(text: str, attr: str) -> bool:
    """Could ``text`` hold a getter given a string of ``attr``? A getter's
    name, and a string literal that may spell the word: a cheap superset of
    what a tree or the tokens show."""
    return any(getter in text for getter in GETTERS) and _spelling(attr).search(text) is not None


# An escape that stands for one character (``\x76``, ``\166``, ``\N{...}``),
# and a line continued inside a string, which stands for none.
_ONE_CHARACTER = r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|N\{[^}\"'\r\n]*\}|[0-7]{1,3})"
_CONTINUED = r"(?:\\(?:\r\n|\r|\n))*"


@functools.cache
def _spelling(attr: str) -> re.Pattern:
    """A quote, then ``attr`` with any of its characters written as an escape
    (``"\\x76jp_bwd"``), and a quote: any string literal that evaluates to it."""
    letters = _CONTINUED.join(f"(?:{re.escape(letter)}|{_ONE_CHARACTER})" for letter in attr)
    return re.compile(f"[\"']{_CONTINUED}{letters}{_CONTINUED}[\"']")


def use_files(roots: tuple[Path, ...], attr: str, search: Holders) -> list[tuple[Path, str]]:
    """(file, digest of its bytes) of each Python file of the trees whose
    bytes hold ``attr``'s: the files a use may be in."""
    return [(path, data) for root in roots for path, data in search.files(root, attr) if path.suffix == ".py"]


def uses_digest(roots: tuple[Path, ...], attr: str, search: Holders) -> str:
    """What a search for uses of ``attr`` rests on: the files that may hold one, and their texts."""
    return digest("\n".join(f"{path}:{data}" for path, data in use_files(roots, attr, search)))


def _scan(roots: tuple[Path, ...], attr: str, by_name: bool, search: Holders) -> list[tuple[Path, int]]:
    found = []
    for path, _ in use_files(roots, attr, search):
        data = search.reads.read(path)
        text = fed(data.decode("utf-8", errors="replace")) if data is not None else ""  # Python's lines
        line = _use_line(text, attr, by_name) if (may_get(text, attr) if by_name else may_use(text, attr)) else None
        if line:
            found.append((path, line))
    return found


def _use_line(text: str, attr: str, by_name: bool) -> int | None:
    """The line of the first ``.attr`` in code (not in a comment or string),
    or with ``by_name``, of the first string naming it alone in a call of a
    getter (``getattr(obj, "attr")``, ``operator.attrgetter("attr")``)."""
    previous, calls = None, []  # calls: the name before each open bracket
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if (
                by_name
                and token.type == tokenize.STRING
                and calls
                and calls[-1] in GETTERS
                and _spells(token.string, attr)
            ):
                return token.start[0]
            if not by_name and token.type == tokenize.NAME and python_name(token.string) == attr and previous == ".":
                return token.start[0]
            if token.type == tokenize.OP and token.string in "([{":
                calls.append(previous)
            elif token.type == tokenize.OP and token.string in ")]}" and calls:
                calls.pop()
            if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                previous = token.string
    except (tokenize.TokenError, SyntaxError):
        return 1  # unreadable, and the cheap test (``may_get``, ``may_use``) found it may: count it
    return None


def _spells(literal: str, attr: str) -> bool:
    """Does this string literal evaluate to ``attr`` (``"vjp_bwd"``, ``'\\x76jp_bwd'``, ``r'vjp_bwd'``)?"""
    try:
        return ast.literal_eval(literal) == attr
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return literal.strip("\"'") == attr


def use_elsewhere(
    roots: tuple[Path, ...],
    attr: str,
    this_file: str,
    by_name: bool = False,
    naming: str | None = None,
    search: Holders | None = None,
) -> tuple[Path, int] | None:
    """The first use of ``attr`` in another file of the trees (of ``roots``) that
    hold ``this_file`` (with ``naming``: in a file that also names that word;
    ``search``: the run's files holding each word, and its reads of the tree,
    which keep the tree's scans for each rule: one a run)."""
    search = search if search is not None else Holders()
    this = real_path(this_file, roots)
    roots = tuple(r for r in roots if this.startswith(os.path.join(os.path.realpath(r), "")))
    scans = search.reads.uses
    if (roots, attr, by_name) not in scans:
        scans[roots, attr, by_name] = _scan(roots, attr, by_name, search)
    return next(
        (
            (p, n)
            for p, n in scans[roots, attr, by_name]
            if os.path.realpath(p) != this and (naming is None or _names(p, naming, search))
        ),
        None,
    )


def _names(path: Path, word: str, search: Holders) -> bool:
    try:
        text = search.reads.originals.read_bytes(path).decode("utf-8", "replace")
        return re.search(rf"\b{re.escape(word)}\b", text) is not None
    except OSError:
        return True


def real_path(this_file: str, roots: tuple[Path, ...]) -> str:
    """The file a shown name stands for: as given, or under one of the roots."""
    if not os.path.isabs(this_file) and not os.path.exists(this_file):
        for root in roots:
            if (root / this_file).exists():
                return os.path.realpath(root / this_file)
    return os.path.realpath(this_file)
