"""Markdown and MyST documents: Python code fences are migrated.

Fences are found with markdown-it-py, as a Markdown renderer sees them:
```` ```python ````, ```` ```py ````, ```` ```{code-cell} ipython3 ```` (its
``:option:`` lines and ``---`` front matter kept). Only the lines inside
those fences can change; prose, other fences and inline code keep every
byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.line_breaks import lines_kept
from .cells import Cell, migrate_cells

_PYTHON = frozenset({"python", "py", "python3", "ipython", "ipython3"})


@dataclass
class _Fence:
    first: int  # index of the first code line
    end: int  # index after the last code line
    indent: str


def _is_python(info: str) -> bool:
    words = info.strip().split()
    if words and words[0] == "{code-cell}":
        return len(words) == 1 or words[1].lower() in _PYTHON
    return bool(words) and words[0].lower() in _PYTHON


def _options_end(lines: list[str], first: int, end: int) -> int:
    """Skip a code-cell's ``:key: value`` lines or ``---`` front matter."""
    if first < end and lines[first].strip() == "---":
        for index in range(first + 1, end):
            if lines[index].strip() == "---":
                return index + 1
        return first
    while first < end and lines[first].lstrip().startswith(":"):
        first += 1
    return first


def fences(text: str, lines: list[str]) -> list[_Fence]:
    from markdown_it import MarkdownIt

    found = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "fence" or not token.map or not _is_python(token.info):
            continue
        start, stop = token.map
        opener = lines[start]
        indent = opener[: len(opener) - len(opener.lstrip(" "))]
        if not opener.lstrip(" ").startswith(token.markup):
            continue  # inside a block quote or the like: left alone
        closed = stop - 1 > start and lines[stop - 1].strip().startswith(token.markup)
        end = stop - 1 if closed else stop
        first = _options_end(lines, start + 1, end) if token.info.strip().startswith("{") else start + 1
        found.append(_Fence(first, end, indent))
    return found


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip(" ")


def migrate_markdown(text: str, path: str, migrate, words):
    """``migrate(code) -> engine.Result``; returns (new text, report)."""
    lines = lines_kept(text)
    found = fences(text, lines)
    cells = [
        Cell("".join(_dedent(line, f.indent) for line in lines[f.first : f.end]), f"line {f.first + 1}", f.first + 1)
        for f in found
    ]
    texts, report = migrate_cells(cells, migrate, path, words)
    for fence, cell, code in sorted(zip(found, cells, texts), key=lambda t: -t[0].first):
        if code != cell.code:
            lines[fence.first : fence.end] = _indented(lines[fence.first : fence.end], cell.code, code, fence.indent)
    return "".join(lines), report


def _indented(raw: list[str], old: str, new: str, indent: str) -> list[str]:
    """The fence's new lines: each line the rewrite kept is its raw line, byte
    for byte (a whitespace-only line in a list item's fence keeps its
    indentation); the others get the fence's indentation."""
    from difflib import SequenceMatcher

    before, after = lines_kept(old), lines_kept(new)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            out += raw[i1:i2]
        else:
            out += [indent + line if line.strip() else line for line in after[j1:j2]]
    return out
