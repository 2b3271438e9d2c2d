"""Python 3.12's type parameters, read by an older ``ast``.

jax 0.12 and its users write ``def f[T](...)``, ``class C[T](...)`` and
``type X = ...``: the summary of such a module does not depend on them, yet
they alone would send it to libcst, ten times slower. Their tokens are taken
out (``type X = v`` becomes an assignment to a name no summary binds) and the
rest is parsed as before; anything else this Python cannot read still goes
to libcst.
"""

from __future__ import annotations

import io
import tokenize

ALIAS = "__hijax_type_alias__"  # never bound by a summary
_STARTS = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT}
_OPEN, _CLOSE = "([{", ")]}"


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
        elif tok.string == "type" and then.string in ("=", "[") and (i == 0 or tokens[i - 1].type in _STARTS):
            end = then if then.string == "=" else tokens[_closing(tokens, i + 2) + 1]
            cuts.append((tok.start, end.start, f"{ALIAS} "))
    return _apply(code, cuts) if cuts else None


def _closing(tokens: list, at: int) -> int:
    depth = 0
    for j in range(at, len(tokens)):
        depth += (tokens[j].string in _OPEN) - (tokens[j].string in _CLOSE)
        if depth == 0:
            return j
    return len(tokens) - 1


def _apply(code: str, cuts: list) -> str:
    lines = code.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        return starts[position[0] - 1] + position[1]

    for start, end, text in reversed(cuts):  # bracketed newlines go too: the line stays one
        code = code[:offset(start)] + text + code[offset(end):]
    return code
