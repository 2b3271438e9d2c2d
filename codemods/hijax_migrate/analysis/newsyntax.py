"""Python 3.12's type parameters, read by an older ``ast``.

jax 0.12 and its users write ``def f[T](...)``, ``class C[T](...)`` and
``type X = ...``: the summary of such a module does not depend on them, yet
they alone would send it to libcst, ten times slower. Their tokens are taken
out (``type X = v`` becomes an assignment to a name no summary binds) and the
rest is parsed as before; other syntax this Python cannot read is written
out older from libcst's tree first (``summary.older_code``). The statements
are found by a pattern on their lines (3.11's tokenizer is pure Python, and slow on a big module), and each cut is
checked against the tree it gives: it must start a ``def``, a ``class`` or
the alias's assignment there, or the whole module is tokenized instead.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from bisect import bisect_right

from ..core.line_breaks import lines_kept
from .line_walk import over_lines

ALIAS = "__hijax_type_alias__"  # never bound by a summary
_STARTS = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT}
_OPEN, _CLOSE = "([{", ")]}"


_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*\[", re.M)
_TYPE = re.compile(r"^([ \t]*)type[ \t]+\w+[ \t]*([=\[])", re.M)


def parse_by_pattern(code: str) -> ast.Module | None:
    """The tree of ``code`` without the type parameters and ``type``
    statements the pattern finds, each cut checked against it; None where it
    finds none, or a doubt (a cut in a string, a list it cannot bracket, a
    parse error): the caller parses ``code`` as it is, or tokenizes it."""
    cuts = _pattern_cuts(code)
    if not cuts:
        return None
    try:
        tree = ast.parse(_apply_offsets(code, cuts))
    except SyntaxError:
        return None
    return tree if _all_start_statements(tree, code, cuts) else None


def _pattern_cuts(code: str) -> list[tuple[int, int, str]] | None:
    """(start, end, replacement) offsets: a parameter list becomes blanks (columns
    and lines stay), ``type X[...] =`` the alias's name. None: a list the pattern
    cannot bracket (a string, a comment or a newline in it)."""
    cuts = []
    for match in _DEF.finditer(code):
        close = _close(code, match.end() - 1)
        if close is None:
            return None
        cuts.append((match.end() - 1, close + 1, " " * (close + 1 - match.end() + 1)))
    for match in _TYPE.finditer(code):
        end = match.end() - 1
        if match.group(2) == "[":
            close = _close(code, end)
            after = re.compile(r"[ \t]*=").match(code, close + 1) if close is not None else None
            if after is None:
                return None
            end = after.end() - 1
        cuts.append((match.start() + len(match.group(1)), end, f"{ALIAS} "))
    return sorted(cuts)


def _close(code: str, at: int) -> int | None:
    depth = 0
    for index in range(at, len(code)):
        char = code[index]
        if char in "'\"#\n\r\\":
            return None
        depth += (char in _OPEN) - (char in _CLOSE)
        if depth == 0:
            return index
    return None


def _apply_offsets(code: str, cuts: list[tuple[int, int, str]]) -> str:
    parts, last = [], 0
    for start, end, text in cuts:
        parts += [code[last:start], text]
        last = end
    return "".join(parts) + code[last:]


def _all_start_statements(tree: ast.Module, code: str, cuts: list[tuple[int, int, str]]) -> bool:
    """Does each cut stand in a statement it was meant for (not in a string)?
    A parameter list follows its ``def``/``class`` on the line; an alias starts
    its assignment."""
    starts = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", code))]
    lines = None if "\r" in code else sorted({bisect_right(starts, start) for start, _, _ in cuts})
    heads = {
        (node.lineno, node.col_offset)
        for node in over_lines(tree, lines)  # a statement stands over the line it starts at
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        or isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == ALIAS
    }
    for start, _, _text in cuts:
        line = bisect_right(starts, start)
        indent = len(code[starts[line - 1] : start]) - len(code[starts[line - 1] : start].lstrip(" \t"))
        if (line, indent) not in heads:
            return False
    return True


def without_type_params(code: str) -> str | None:
    """``code`` without type parameters and ``type`` statements; None if it has none."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    cuts = []  # (start, end, replacement), positions as (line, column)
    for i, tok in enumerate(tokens[:-2]):
        after, then = tokens[i + 1], tokens[i + 2]
        if tok.type != tokenize.NAME or after.type != tokenize.NAME:
            continue
        if tok.string in ("def", "class") and then.string == "[":
            cuts.append((then.start, tokens[_closing(tokens, i + 2)].end, ""))
        elif tok.string == "type" and then.string in ("=", "[") and (i == 0 or _starts_statement(tokens[i - 1])):
            end = then if then.string == "=" else tokens[_closing(tokens, i + 2) + 1]
            cuts.append((tok.start, end.start, f"{ALIAS} "))
    return _apply(code, cuts) if cuts else None


def _starts_statement(before) -> bool:
    """Does the token after ``before`` start a statement: a line's first, or after a
    ``;`` or a header's ``:`` (``type X =`` after any other ``:`` is no Python)?"""
    return before.type in _STARTS or (before.type == tokenize.OP and before.string in (";", ":"))


def _closing(tokens: list, at: int) -> int:
    depth = 0
    for j in range(at, len(tokens)):
        depth += (tokens[j].string in _OPEN) - (tokens[j].string in _CLOSE)
        if depth == 0:
            return j
    return len(tokens) - 1


def _apply(code: str, cuts: list) -> str:
    lines = lines_kept(code)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        return starts[position[0] - 1] + position[1]

    for start, end, text in reversed(cuts):  # bracketed newlines go too: the line stays one
        code = code[: offset(start)] + text + code[offset(end) :]
    return code
