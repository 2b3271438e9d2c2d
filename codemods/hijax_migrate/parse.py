"""Parsing with libcst, guarded.

libcst's native parser crashes the whole process (a segmentation fault, not
an exception) on brackets nested thousands deep. Python itself refuses more
than 200 nested brackets or 100 indentation levels, so CPython's own parser
(``ast``, in C, about ten times faster) looks first, and such input is
reported like any other broken file.
"""

from __future__ import annotations

import ast
import warnings

import libcst as cst

from .errors import MigrationError

_TOO_DEEP = ("too many nested parentheses", "too many levels of indentation", "too many statically nested")


def parse(code: str) -> cst.Module:
    python_error = _python_error(code)
    try:
        return cst.parse_module(code)
    except cst.ParserSyntaxError as error:
        if python_error is not None:  # Python's words are the clearer ones
            raise MigrationError(f"syntax error: {python_error.msg}", python_error.lineno or 0) from error
        raise MigrationError(f"syntax error: {error.message}", error.raw_line) from error
    except RecursionError as error:
        raise MigrationError("too deeply nested to parse") from error


def _python_error(code: str) -> SyntaxError | None:
    """CPython's verdict; raises for what libcst must never see."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: not ours to report
            ast.parse(code)
    except SyntaxError as error:
        if (error.msg or "").startswith(_TOO_DEEP):
            raise MigrationError(f"too deeply nested ({error.msg})", error.lineno or 0) from error
        return error  # libcst may still accept it: it knows syntax newer than this Python's
    except (RecursionError, MemoryError) as error:
        raise MigrationError("too deeply nested to parse") from error
    return None
