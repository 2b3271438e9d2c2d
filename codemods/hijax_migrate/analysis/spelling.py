"""Names Python reads otherwise than they are written.

Python reads every name NFKC-normalised: ``def ｖjp_bwd`` defines
``vjp_bwd``. The rules match names as libcst gives them, as written, so such
a spelling of a word they act on would be passed over in silence; a file
holding one is refused instead, with the line and what Python reads.
"""

from __future__ import annotations

import re

from ..core.errors import MigrationError
from ..sources.files import python_name


def check_spelling(code: str, words) -> None:
    """Raises MigrationError at the first name beyond ASCII that Python reads
    as one holding a rule's word (in a string or a comment too: a superset)."""
    found = respelt(code, words)
    if found is not None:
        line, name, read = found
        raise MigrationError(
            f"`{name}` is read by Python as `{read}`; the rules match names as "
            f"written: spell it `{read}`, then run again",
            line,
        )


def respelt(code: str, words) -> tuple[int, str, str] | None:
    """(line, name, as Python reads it) of the first such name, a name holding
    one of ``words`` (the pre-filter's, every rule's); None: none."""
    if code.isascii():
        return None
    names = {word.split()[-1].decode() for word in words}  # `def dce`: the name
    for match in _beyond_ascii(code):
        name = match.group()
        read = python_name(name)
        if read != name and any(word in read for word in names):
            return code.count("\n", 0, match.start()) + 1, name, read
    return None


_NOT_ASCII, _WORD, _RUN = re.compile(r"[^\x00-\x7f]"), re.compile(r"\w"), re.compile(r"\w+")


def _beyond_ascii(code: str):
    """The matches of ``\\w+`` (whole names) holding a character beyond ASCII, in order:
    found from those characters (few), never by a scan of every name in Python."""
    end = 0
    for found in _NOT_ASCII.finditer(code):
        at = found.start()
        if at < end or not _WORD.match(code, at):
            continue
        start = at
        while start > end and _WORD.match(code, start - 1):
            start -= 1
        run = _RUN.match(code, start)
        end = run.end()
        yield run
