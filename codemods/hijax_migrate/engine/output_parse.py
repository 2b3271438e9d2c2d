"""The rewrite parses: checked before anything is written, where the running
Python cannot read the input (``checks.check_output`` compiles the output
wherever it can: CPython is the parser that counts).

libcst parses the output again. A top-level statement the rewrite left as it
was (the input's own node) parsed with the input, so only the others are
parsed again, together: each top-level statement starts at column 0 and
ends its own lines, so it parses alone as it does among the others. Where the
module's own layout changed, or the text is not the tree's (black formatted
it), the whole text is parsed.
"""

from __future__ import annotations

import libcst as cst

from ..core.errors import MigrationError, tool_bug

_LAYOUT = ("default_indent", "default_newline", "encoding")  # what codegen of a kept node reads


def check_parses(old: cst.Module, new: cst.Module | None, new_code: str) -> None:
    """``new``: the tree ``new_code`` is the code of (None: another text)."""
    text = _rewritten(old, new) if new is not None else None
    try:
        cst.parse_module(new_code if text is None else text)
        return
    except cst.ParserSyntaxError as error:
        if text is None:
            raise _bug(error, error.raw_line) from error
        part = error
    try:  # the whole text, for the line in the output
        cst.parse_module(new_code)
    except cst.ParserSyntaxError as error:
        raise _bug(error, error.raw_line) from error
    raise _bug(part, 0) from part


def _bug(error: cst.ParserSyntaxError, line: int) -> MigrationError:
    return tool_bug(f"the rewrite does not parse ({error.message})", line)


def _rewritten(old: cst.Module, new: cst.Module) -> str | None:
    """The code of the statements ``new`` does not share with ``old``; None:
    the whole text must be parsed."""
    if (
        any(getattr(old, name) != getattr(new, name) for name in _LAYOUT)
        or not _same(old.header, new.header)
        or not _same(old.footer, new.footer)
    ):
        return None
    kept = {id(statement) for statement in old.body}  # ``old`` holds them: no id is reused
    return new.with_changes(body=[s for s in new.body if id(s) not in kept], header=(), footer=()).code


def _same(a, b) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))
