"""Parsing with libcst, guarded.

libcst's native parser crashes the whole process (a segmentation fault, not
an exception) on code nested some 5,000 levels deep, and such code can be
valid Python: a chain of 8,000 ``and`` terms (libcst nests them two by two),
or ten parenthesised chains of 999 terms inside each other. Python itself
refuses more than 200 nested brackets or 100 indentation levels, so CPython's
own parser (``ast``, in C, about ten times faster) looks first; such input,
and anything nested deeper than ``MAX_DEPTH`` as libcst counts it, is reported
like any other file the tool cannot handle. (A crash of another shape kills a
worker process, not the run: see pool.py.)
"""

from __future__ import annotations

import ast
import contextlib
import re
import warnings
from contextvars import ContextVar
from typing import TYPE_CHECKING

from ..core.errors import MigrationError
from .files import MAX_BYTES

if TYPE_CHECKING:
    import libcst as cst

# libcst crashes at about 8,000 terms (an 8 MiB stack): this leaves a wide margin.
MAX_CHAIN = 1000
_BOOL_WORD = re.compile(r"\b(?:and|or)\b")
# The tool's own visitors give up (RecursionError) near 500 levels, libcst's
# parser crashes near 5,000: refusing beyond this loses nothing it could migrate.
MAX_DEPTH = 1000
# About 2 KB of memory each in libcst's tree: 1 GB in all, 1.5 MiB of ordinary
# code (files.MAX_BYTES); data written out as code has more for its size.
MAX_WORDS = 460_000
_WORD = re.compile(r"\w+|[^\w\s]")  # a word, or one symbol: near enough Python's tokens
_TOO_DEEP = ("too many nested parentheses", "too many levels of indentation", "too many statically nested")


def problem(code: str) -> MigrationError | None:
    """Why ``code`` cannot be parsed, or None. libcst reads all the syntax this
    Python does: it is asked (and imported) only where Python refuses, as it
    knows newer syntax. A notebook's cells are each asked."""
    try:
        _check_words(code)
        if _python_error(code) is None:
            return None
        parse(code)
    except MigrationError as error:
        return error
    return None


def parse(code: str) -> cst.Module:
    import libcst as cst

    _check_words(code)
    python_error = _python_error(code)
    try:
        return _keep_final_cr(cst.parse_module(code), code)
    except cst.ParserSyntaxError as error:
        if python_error is not None:  # Python's words are the clearer ones
            raise MigrationError(f"syntax error: {python_error.msg}", python_error.lineno or 0) from error
        raise MigrationError(f"syntax error: {error.message}", error.raw_line) from error
    except RecursionError as error:
        raise MigrationError("too deeply nested to parse") from error


def _check_words(code: str) -> None:
    """Refuse what libcst's tree would take more than about 1 GB for."""
    size = len(code.encode("utf-8", "surrogatepass")) if len(code) * 4 > MAX_BYTES else 0
    if size > MAX_BYTES:
        raise MigrationError(
            f"too large to migrate ({size:,} bytes; the limit is "
            f"{MAX_BYTES / 2**20:g} MiB, which takes about 1 GB of memory)"
        )
    words = _WORD.subn("", code)[1] if len(code) > MAX_WORDS else 0  # fewer characters: fewer words
    if words > MAX_WORDS:
        raise MigrationError(
            f"too large to migrate (over {MAX_WORDS:,} words and symbols: {words:,}; libcst's "
            "tree of that many takes about 1 GB of memory); left unchanged"
        )


# The holder of the file in hand (``trees_kept``): outside one, nothing is kept.
_KEPT: ContextVar[list | None] = ContextVar("python_trees_kept", default=None)


@contextlib.contextmanager
def trees_kept():
    """Within it, the last text CPython parsed and its tree are kept: one
    file's triage, fixtures, definitions' lines and rules each ask for it
    (jax's hijax_test.py: five parses of 0.06 s). Opened for one file (the
    runner's, the engine's); one opened inside another is the outer one.
    No caller changes a tree, and the same text gives the same tree; the
    holder goes with the file: no module keeps a text or a tree."""
    if _KEPT.get() is not None:
        yield
        return
    token = _KEPT.set([None, None, {}])
    try:
        yield
    finally:
        _KEPT.reset(token)


def python_tree(code: str) -> ast.Module:
    """``ast.parse(code)``, its warnings (invalid escapes and the like) not ours
    to report; raises as it does. Inside ``trees_kept``, the last text's tree
    is given again."""
    kept = _KEPT.get()
    if kept is not None and kept[0] is not None and (kept[0] is code or kept[0] == code):
        return kept[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(code)
    if kept is not None:
        kept[:] = code, tree, {}
    return tree


def kept_fact(tree: ast.Module, name: str, make):
    """``make(tree)``, made once for the tree ``trees_kept`` holds (triage and the
    migration each ask for a fact of it, such as its names); for any other tree,
    made each time. No caller changes a fact, as none changes a tree."""
    kept = _KEPT.get()
    if kept is None or kept[1] is not tree:
        return make(tree)
    facts = kept[2]
    if name not in facts:
        facts[name] = make(tree)
    return facts[name]


def _python_error(code: str) -> SyntaxError | None:
    """CPython's verdict; raises for what libcst must never see."""
    try:
        tree = python_tree(code)
    except SyntaxError as error:
        if (error.msg or "").startswith(_TOO_DEEP):
            raise MigrationError(f"too deeply nested ({error.msg})", error.lineno or 0) from error
        return error  # libcst may still accept it: it knows syntax newer than this Python's
    except (RecursionError, MemoryError) as error:
        raise MigrationError("too deeply nested to parse") from error
    _check_chains(code, tree)
    _check_depth(tree)
    return None


def _check_chains(code: str, tree: ast.Module) -> None:
    if len(_BOOL_WORD.findall(code)) <= MAX_CHAIN:  # a cheap look first
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and len(node.values) > MAX_CHAIN:
            raise MigrationError(
                f"a chain of {len(node.values)} `{type(node.op).__name__.lower()}` "
                f"terms is longer than libcst's parser can take (at most "
                f"{MAX_CHAIN}); left unchanged",
                node.lineno,
            )


def _check_depth(tree: ast.Module) -> None:
    depth, line = _deepest(tree)
    if depth > MAX_DEPTH:
        raise MigrationError(
            f"nested {depth} levels deep as libcst counts them (each and/or term is a "
            f"level), more than its parser can take (at most {MAX_DEPTH}); left unchanged",
            line,
        )


def _deepest(tree: ast.AST) -> tuple[int, int]:
    """The depth of libcst's tree for ``tree``, and the line where it is reached.
    An explicit stack: the nesting can be deeper than Python's recursion limit."""
    best, line, stack, node_type = 0, 0, [(tree, 0)], ast.AST
    while stack:
        node, depth = stack.pop()
        depth += len(node.values) - 1 if isinstance(node, ast.BoolOp) else 1
        if depth > best:
            best, line = depth, getattr(node, "lineno", line)
        for name in node._fields:  # ``ast.iter_child_nodes``, in its order, without its generators
            value = getattr(node, name, None)
            if isinstance(value, node_type):
                stack.append((value, depth))
            elif isinstance(value, list):
                stack.extend((child, depth) for child in value if isinstance(child, node_type))
    return best, line


def _keep_final_cr(module: cst.Module, code: str) -> cst.Module:
    # libcst reads a CR-only file's last "\r" as no final newline, and drops it.
    if code.endswith("\r") and not module.has_trailing_newline:
        return module.with_changes(has_trailing_newline=True)
    return module
