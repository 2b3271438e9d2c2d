"""Where a file spells the backward rule's name, and whether a rename can follow each spelling.

The unsafe fix (``engine/unsafe.py``) renames ``vjp_bwd`` to ``vjp_bwd_retval`` at every spelling of
it a file holds: an identifier, a plain literal ``"vjp_bwd"`` (renamed in its quotes), and any other
string expression the compiler folds to the name (the lexical reference's implicit concatenation,
escapes, raw and triple-quoted forms, an f-string with no field, ``+`` of such: written anew as one
literal). A spelling the rename cannot follow (a piece of the name joined to anything else, a name
given as a value the file does not bind itself) is ``unfollowed``: no fix is made there.
"""

from __future__ import annotations

import ast
import io
import tokenize

from ..core.errors import MigrationError
from .ast_summary import parse_ast

OLD, NEW = "vjp_bwd", "vjp_bwd_retval"
_LITERALS = (f'"{OLD}"', f"'{OLD}'")
# The calls that reach an attribute by a name given as a value, and which argument is the name.
_BY_NAME = {"getattr": 1, "hasattr": 1, "setattr": 1, "delattr": 1, "getattr_static": 1}
_BY_NAME |= {"attrgetter": 0, "methodcaller": 0}

# (line, column) of a token spelled ``vjp_bwd`` or ``"vjp_bwd"``; with (line, column) of its end, an
# expression other than a plain literal whose value is the name (``"vjp_" "bwd"``): written anew
Site = tuple[int, ...]
Tokens = dict[int, list[tuple[int, str, Site]]]  # line -> (column, text, site) of each spelling


def named_tokens(code: str, tree: ast.Module) -> Tokens:
    """Each identifier ``vjp_bwd``, plain literal ``"vjp_bwd"`` and other expression of that value
    (``spelled``); a token inside such an expression is the expression's."""
    found: Tokens = {}
    spelled = _spelled(tree, io.StringIO(code).readlines())
    for line, col, end_line, end in spelled:
        found.setdefault(line, []).append((col, "", (line, col, end_line, end)))
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        plain = (token.type == tokenize.NAME and token.string == OLD) or (
            token.type == tokenize.STRING and token.string in _LITERALS
        )
        if plain and not _inside(spelled, token.start):
            found.setdefault(token.start[0], []).append((token.start[1], token.string, token.start))
    return found


def _spelled(tree: ast.Module, lines: list[str]) -> list[Site]:
    """(line, column, end line, end column) of each expression on one line whose value is the name
    but that is no plain literal of it: ``'vjp\\x5fbwd'``, ``"vjp_" "bwd"``, ``"vjp_" + "bwd"``."""
    found, todo = [], [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.expr) and node.lineno == node.end_lineno and folded(node) == OLD:
            text = lines[node.lineno - 1].encode()
            col, end = (len(text[:at].decode(errors="replace")) for at in (node.col_offset, node.end_col_offset))
            if text[node.col_offset : node.end_col_offset].decode() not in _LITERALS:
                found.append((node.lineno, col, node.end_lineno, end))
            continue
        children = ast.iter_child_nodes(node)
        todo += [c for c in children if not isinstance(node, ast.JoinedStr) or isinstance(c, ast.FormattedValue)]
    return found


def folded(node: ast.AST) -> str | None:
    """The value of a string expression the compiler folds: a literal (pieces side by side), an
    f-string with no field, ``+`` of such; None: another expression."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        parts = [folded(value) for value in node.values]
        return "".join(parts) if all(part is not None for part in parts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = folded(node.left), folded(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _inside(spelled: list[Site], start: tuple[int, int]) -> bool:
    return any(line == start[0] and col <= start[1] < end for line, col, _, end in spelled)


def renamed(code: str, sites: list[Site]) -> str:
    """``code`` with the token at each site renamed (a literal keeps its quotes), and each
    expression site written anew as the literal ``"vjp_bwd_retval"``."""
    lines = io.StringIO(code).readlines()  # as ``tokenize`` numbers them
    for site in sorted(sites, reverse=True):
        line, col, text = site[0], site[1], lines[site[0] - 1]
        if len(site) == 4:  # in the quotes of its first piece
            quote = next((char for char in text[col : site[3]] if char in "\"'"), '"')
            lines[line - 1] = f"{text[:col]}{quote}{NEW}{quote}{text[site[3] :]}"
            continue
        start = col + 1 if text[col] in "\"'" else col
        lines[line - 1] = text[:start] + NEW + text[start + len(OLD) :]
    return "".join(lines)


class Unfollowed(str):
    """Why a rename cannot follow every way a file names the rule (a ``str``), and where (``line``)."""

    line: int = 0


def unfollowed(code: str) -> Unfollowed | None:
    """Where ``code`` may spell the rule's name in a way the rename does not follow: a literal
    written otherwise (``r"vjp_bwd"``, ``"vjp\\x5fbwd"``) or a piece of it (``"vjp_" "bwd"``), or a name
    given as a value the file does not bind itself (imported, computed); None: nowhere."""
    try:
        tree = parsed(code)
        strings = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.STRING]
    except (SyntaxError, tokenize.TokenError, ValueError):
        return _why("its text cannot be read", 1)
    spelled = _spelled(tree, io.StringIO(code).readlines())
    for token in strings:
        if token.string not in _LITERALS and _spells_part(token.string) and not _inside(spelled, token.start):
            return _why(f"it spells the name otherwise (`{token.string}`)", token.start[0])
    imported = imported_names(tree)
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = name_argument(call)
        if name is not None and not followed_value(name, imported):
            return _why(f"it reaches an attribute by a name given as a value (`{ast.unparse(call)[:60]}`)", call.lineno)
    return None


def _why(text: str, line: int) -> Unfollowed:
    why = Unfollowed(text)
    why.line = line
    return why


def _spells_part(literal: str) -> bool:
    """A string literal whose value is the name, or a piece of it of three characters or more."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return False
    return isinstance(value, str) and len(value) >= 3 and (OLD.startswith(value) or OLD.endswith(value))


def imported_names(tree: ast.Module) -> set[str]:
    """The names the file's imports bind."""
    return {
        a.asname or a.name.partition(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }


def called(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def name_argument(call: ast.Call) -> ast.expr | None:
    index = _BY_NAME.get(called(call))
    return call.args[index] if index is not None and len(call.args) > index else None


def followed_value(name: ast.expr, imported: set[str]) -> bool:
    """A literal, or a name (``RULE``, ``_RULES["backward"]``, ``_NAMES[0]``) the file binds itself:
    where it holds the name, the literal is renamed with the rest."""
    while isinstance(name, (ast.Subscript, ast.Attribute)):
        name = name.value
    return folded(name) is not None or isinstance(name, ast.Name) and name.id not in imported


def parsed(code: str) -> ast.Module:
    """``ast``'s tree of ``code`` as the summaries read it (``parse_ast``: PEP 695's type parameters
    cut out, each statement on its line); where that cannot, of the same code written older from
    libcst's tree (``summary.ast_of``)."""
    try:
        return parse_ast(code, keep=False)
    except SyntaxError:
        import libcst as cst

        from .summary import ast_of

        try:
            return ast_of(cst.parse_module(code), code)[0]
        except (cst.ParserSyntaxError, MigrationError) as error:
            raise SyntaxError(str(error)) from None
