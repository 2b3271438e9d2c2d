"""Post-conditions of a rewrite, checked before anything is written.

A failure is a bug in the tool: the file is left byte-identical and the
problem is reported with its line (exit code 3).
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import symtable
import tokenize
from collections import Counter

from ..core.errors import tool_bug
from ..sources.parse import python_tree

_BUILTINS = frozenset(dir(builtins)) | {
    "__file__",
    "__name__",
    "__doc__",
    "__builtins__",
    "__spec__",
    "__loader__",
    "__package__",
    "__path__",
    "__annotations__",
}
_STAR_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+\*", re.M)


def check_output(old: str, new: str, path: str) -> bool:
    """Where the running Python reads the input: the output parses and compiles
    too, and leaves no name unbound that the input bound (CPython's own symbol
    tables). False: the input is not for this Python, nothing was compared. The input is
    compiled only where the output's verdict needs it (a big module's compile is tens of ms)."""
    try:  # the tree the last summary of the output parsed, where it is kept (``trees_kept``)
        compile(python_tree(new), path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        if not _compiles(old, path):
            return False
        if isinstance(error, ValueError):
            raise
        raise tool_bug(f"the rewrite does not {_failed_step(new, path)} ({error.msg})", error.lineno or 0) from error
    after = _unbound(new, path)  # mostly none: then the input's are not worked out
    try:
        before = Counter(name for name, _ in _unbound(old, path)) if after else Counter()
    except (SyntaxError, ValueError):
        return False
    for name, line in after:
        before[name] -= 1
        if before[name] < 0:
            raise tool_bug(f"the rewrite leaves `{name}` unbound", line or _first_use(new, name))
    return True


def _compiles(code: str, path: str) -> bool:
    try:
        compile(code, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _failed_step(code: str, path: str) -> str:
    """Where a compile failed: the parse, or a later step (a duplicate argument)."""
    try:
        ast.parse(code, path)
    except SyntaxError:
        return "parse"
    return "compile"


def _unbound(code: str, path: str) -> list[tuple[str, int]]:
    """Names a scope reads that nothing binds (builtins aside), with the scope's line."""
    if _STAR_IMPORT.search(code):
        return []  # may bind anything
    top = symtable.symtable(code, path, "exec")
    bound = {s.get_name() for s in _symbols(top) if s.is_assigned() or s.is_imported() or s.is_namespace()}
    found, tables = [], [top]
    while tables:
        table = tables.pop()
        tables += table.get_children()
        for symbol in _symbols(table):
            name = symbol.get_name()
            is_global = symbol.is_global() or (table is top and not symbol.is_local())
            if symbol.is_referenced() and is_global and name not in bound and name not in _BUILTINS:
                found.append((name, table.get_lineno()))
    return found


def _symbols(table: symtable.SymbolTable) -> list[symtable.Symbol]:
    """``table.get_symbols()``, each symbol built as ``lookup`` builds it, with
    the nested scopes grouped by name once: ``lookup`` looks through every
    nested scope for each name, quadratic in a big module's top-level names.
    Where this Python's symtable is built otherwise, its own method."""
    try:
        flags, module_scope = table._table.symbols, table._table.name == "top"
        scopes: dict[str, list] = {}
        for child in table._table.children:
            scopes.setdefault(child.name, []).append(child)
        return [
            symtable.Symbol(
                name,
                flags[name],
                [symtable._newSymbolTable(s, table._filename) for s in scopes.get(name, ())],
                module_scope=module_scope,
            )
            for name in table.get_identifiers()
        ]
    except (AttributeError, KeyError, TypeError):
        return table.get_symbols()


def _first_use(code: str, name: str) -> int:
    """The first line naming ``name`` (a module scope's table has no line of its own)."""
    try:
        return next(
            t.start[0]
            for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type == tokenize.NAME and t.string == name
        )
    except (tokenize.TokenError, SyntaxError, StopIteration):
        return 0
