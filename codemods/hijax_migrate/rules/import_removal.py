"""``from`` imports a rule asks to remove, removed where nothing reads them.

Whether an import is read comes from the name model of the edited module, as
Python resolves names (``analysis.resolution``): an import goes where no read
may resolve to an import of its name, no ``global`` or ``nonlocal`` names it,
no ``+=`` reads it, no pattern names it, and no string where a name may stand
(an annotation, ``__all__``, a typing call's or subscript's) holds it. Where
the model cannot follow a read, the import stays: an unused import is harmless,
a missing one a NameError.

The edit is libcst's ``RemoveImportsVisitor``'s, alias for alias: the names
asked for go from a ``from`` import of the module asked (an absolute one: the
visitor is given no package to resolve a relative one), a comment after a
removed name's comma joins the name before it, the last kept name loses its
comma, and a statement left with no name goes with its line. The visitor
itself resolves libcst's scopes and qualified names over the whole module;
this needs only a walk of the statements. Where ``ast`` cannot read the module
(syntax newer than the running Python), the visitor decides, as before.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from ..analysis.names import NameModel
from ..analysis.resolution import resolve

Request = tuple[str, str, "str | None"]  # (module, name, the name it is imported as where not its own)


def removed(tree: cst.Module, requests: list[Request]) -> cst.Module:
    """``tree`` less each import asked for that nothing reads."""
    unread = unread_names(tree.code, {alias or name for _, name, alias in requests})
    if unread is None:
        return _by_libcst(tree, requests)
    wanted = {request for request in requests if (request[2] or request[1]) in unread}
    return tree.visit(_Unimport(wanted)) if wanted else tree


def _by_libcst(tree: cst.Module, requests: list[Request]) -> cst.Module:
    """Where ``ast`` cannot read the module (newer syntax): libcst's visitor and its scopes."""
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    return RemoveImportsVisitor(CodemodContext(), requests).transform_module(tree)


def unread_names(code: str, names: set[str]) -> set[str] | None:
    """Which of ``names`` nothing in the module may read as an import of them
    (None where ``ast`` cannot read it)."""
    try:
        module = ast.parse(code)
        model = NameModel.of(module)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    mentioned = _mentioned(module, names)
    return {name for name in names - mentioned if not _read_as_imported(model, name)}


def _read_as_imported(model: NameModel, name: str) -> bool:
    """May a read of ``name`` be an import's binding (or one the model cannot follow)?"""
    if name in model.declared:
        return True
    for scope, node in model.reads.get(name, ()):
        found = resolve(model, scope, name, node)
        if found is None or any(binding.statement is not None for binding in found.bindings):
            return True
    return False


def _mentioned(module: ast.Module, names: set[str]) -> set[str]:
    """Which of ``names`` the module reads by other means than a plain read: ``+=``,
    a pattern, or a string where a name may stand."""
    typing = _typing_names(module)
    found: set[str] = set()
    for _, node, quoted in _nodes(module, typing):
        found |= names & (_named(node) | (_quoted(node, names) if quoted else set()))
    return found


def _named(node: ast.AST) -> set[str]:
    """Names read where ``ast`` keeps no read: an augmented target, a pattern's name
    (libcst reads those as uses too: ``case {**rest}``, ``case C(key=1)``)."""
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return {node.name}
    if isinstance(node, ast.MatchMapping) and node.rest:
        return {node.rest}
    if isinstance(node, ast.MatchClass):
        return set(node.kwd_attrs)
    return set()


def _quoted(node: ast.AST, names: set[str]) -> set[str]:
    """Which of ``names`` a string where a name may stand may hold. libcst parses
    bytes there too, in the encoding they declare: ASCII in any, other names maybe."""
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, bytes):
        text = value.decode("latin-1")
        return {name for name in names if not name.isascii() or name in text}
    return {name for name in names if name in value} if isinstance(value, str) else set()


def _nodes(module: ast.Module, typing: set[str]):
    """(statement, node, whether a string there may name something) of every node."""
    pending = [(statement, statement, False) for statement in module.body]
    while pending:
        statement, node, quoted = pending.pop()
        quoted = quoted or _quotes(statement, node, typing)
        yield statement, node, quoted
        for child in ast.iter_child_nodes(node):
            inner = isinstance(child, ast.stmt)
            pending.append((child if inner else statement, child, quoted and not inner))


def _quotes(statement: ast.stmt, node: ast.AST, typing: set[str]) -> bool:
    """May a string inside ``node`` stand for a name (an annotation, an export, a typing call's)?"""
    if (
        isinstance(node, (ast.arg, *_TYPE_PARAMS))
        or node is getattr(statement, "returns", None)
        or (isinstance(statement, ast.AnnAssign) and node is statement.annotation)
    ):
        return True
    if isinstance(node, ast.Subscript):  # ``List["X"]``: a typing name's subscript is read as a type
        return isinstance(node.value, ast.Name) and node.value.id in typing
    if isinstance(node, ast.Call):
        callee = node.func
        return (isinstance(callee, ast.Name) and callee.id in typing) or (
            isinstance(callee, ast.Attribute)
            and (callee.attr in _TYPING_CALLS or (isinstance(callee.value, ast.Name) and callee.value.id in typing))
        )
    return node is statement and any(
        isinstance(n, ast.Name) and n.id == "__all__"
        for n in ast.walk(statement)
        if not isinstance(n, ast.stmt) or n is statement
    )


# Calls whose strings may be read as annotations (``typing.TypeVar("T", bound="X")``), by
# their last name; any name imported from these modules counts too.
_TYPING_CALLS = frozenset({"TypeVar", "cast", "NewType", "ParamSpec", "TypeVarTuple", "TypeAliasType"})
_TYPING_MODULES = frozenset({"typing", "typing_extensions"})
_TYPE_PARAMS = tuple(getattr(ast, name) for name in ("TypeVar", "ParamSpec", "TypeVarTuple") if hasattr(ast, name))


def _typing_names(module: ast.Module) -> set[str]:
    """The names a typing function (or a generic subscripted) may go by: the
    known ones, and whatever is imported from (or as) a typing module or one of its own."""
    names = set(_TYPING_CALLS)
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] in _TYPING_MODULES:
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {
                alias.asname or alias.name.partition(".")[0]
                for alias in node.names
                if alias.name.partition(".")[0] in _TYPING_MODULES
            }
    return names


class _Unimport(cst.CSTTransformer):
    """Each alias asked for, gone from its ``from`` import; only statements are walked."""

    def __init__(self, wanted: set[Request]):
        super().__init__()
        self.wanted = wanted

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, (cst.BaseExpression, cst.BaseSmallStatement))

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        names = updated_node.names
        if isinstance(names, cst.ImportStar) or updated_node.relative or updated_node.module is None:
            return updated_node
        module = get_full_name_for_node(updated_node.module)
        kept, lpar = [], updated_node.lpar
        for alias in names:
            if (module, alias.evaluated_name, alias.evaluated_alias) not in self.wanted:
                kept.append(alias)
            elif isinstance(alias.comma, cst.Comma):  # its comment stays, with the name before it
                kept, lpar = _comment_kept(kept, lpar, alias.comma)
        if len(kept) == len(names):
            return updated_node
        if not kept:
            return cst.RemoveFromParent()
        if kept[-1] is not names[-1]:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=kept, lpar=lpar)


def _comment_kept(kept: list, lpar, comma: cst.Comma) -> tuple[list, object]:
    """A removed name's comma's comments, joined to the name kept before it, else to the parenthesis."""
    if kept:
        before = kept[-1]
        if isinstance(before.comma, cst.Comma):
            before = before.with_deep_changes(
                before.comma, whitespace_after=_merged(before.comma.whitespace_after, comma.whitespace_after)
            )
        else:
            before = before.with_changes(comma=comma)
        return [*kept[:-1], before], lpar
    if isinstance(lpar, cst.LeftParen):
        lpar = lpar.with_changes(whitespace_after=_merged(lpar.whitespace_after, comma.whitespace_after))
    return kept, lpar


def _merged(left, right):
    """``left`` with the comment lines of ``right`` (both a name's comma's whitespace)."""
    if not isinstance(right, cst.ParenthesizedWhitespace):
        return left
    if not isinstance(left, cst.ParenthesizedWhitespace):
        return right
    return left.with_changes(empty_lines=tuple(line for line in right.empty_lines if line.comment is not None))
