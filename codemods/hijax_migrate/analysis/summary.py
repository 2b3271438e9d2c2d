"""The module summary of a libcst tree, and libcst helpers that read what it reads.

Summaries have one builder, ``ast_summary``'s. The file being migrated is
summarised from its text, and each ClassInfo is paired with the tree's class
statement by the structure the two trees share: the n-th class statement in
source order (preorder, at any depth) is the n-th of each. Where the running
Python's ``ast`` cannot read the text (syntax newer than its own, which
libcst reads), the tree is written out in older syntax first: each f- or
t-string a tuple ``(-0, 'its text')`` on as many lines, ``except A, B:`` bracketed;
``newsyntax`` takes out type parameters as for any text.

The node helpers serve the rewrites: ``dotted_name`` and the members of a
``type(...)`` dict as written (a rule's form is ``ast_summary.rule_form`` of
``ast``'s statement, through the bridge).
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from ..core.errors import MigrationError, tool_bug
from .ast_summary import member_index, parse_ast, summarize_ast
from .bridge import Bridge

# The summary's data lives in ``scopes``, free of libcst; re-exported for the rewrites that import it from here.
from .scopes import (  # noqa: F401
    ACCUMULATOR,
    CLASSIC,
    METHOD,
    PRIMITIVE_KINDS,
    ClassInfo,
    Kind,
    ModuleSummary,
    Scope,
    strongest,
)

_UNREADABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def summarize_tree(
    tree: cst.Module, code: str, module: str = "", is_package: bool = False, bridge: Bridge | None = None
) -> tuple[ModuleSummary, list[cst.ClassDef]]:
    """The summary of ``code`` (the text of ``tree``), and the class statement
    of ``tree`` behind each of its ClassInfos (``bridge``: the two trees',
    where the caller has it). The nodes are kept apart from the summary: the
    project keeps summaries of other modules for the whole run, and must not
    keep their trees alive."""
    bridge = bridge or bridge_of(tree, code)
    summary = summarize_ast(bridge.parsed, module, is_package)[0]
    return summary, paired(summary.classes, [node for node, _ in bridge.statements(cst.ClassDef)])


def bridge_of(tree: cst.Module, code: str) -> Bridge:
    """The statements of ``tree`` paired with ``ast``'s of ``code``, its text (or of
    that text written out older, where ``ast`` cannot read it)."""
    parsed, text = ast_of(tree, code)
    return Bridge(tree, parsed, text, as_written=text is code)


def summarize(tree: cst.Module, module: str = "", is_package: bool = False) -> ModuleSummary:
    """The summary of a module whose text ``ast`` cannot read as written;
    raises MigrationError where it cannot read it in older syntax either."""
    return summarize_ast(_older_ast(tree)[0], module, is_package)[0]


def ast_of(tree: cst.Module, code: str) -> tuple[ast.Module, str]:
    """``ast``'s tree of ``code``, the text of ``tree``, and the text it read:
    ``code``, or ``code`` written out older where ``ast`` cannot read it (its
    statements on their lines, in the same order)."""
    try:
        return parse_ast(code), code
    except _UNREADABLE:
        return _older_ast(tree)


def _older_ast(tree: cst.Module) -> tuple[ast.Module, str]:
    older = older_code(tree)
    try:
        return parse_ast(older), older
    except _UNREADABLE as error:
        raise MigrationError(f"syntax this Python cannot read: {error}", getattr(error, "lineno", 0) or 0) from None


def paired(infos: list[ClassInfo], nodes: list[cst.ClassDef]) -> list[cst.ClassDef]:
    """``nodes``, checked to be the class statements ``infos`` were read from:
    as many, each of the same name."""
    if len(infos) != len(nodes) or any(
        info.qualname.rsplit(".", 1)[-1] != node.name.value for info, node in zip(infos, nodes)
    ):
        raise tool_bug("the summary's classes are not the tree's class statements", 0)
    return nodes


class _Older(cst.CSTTransformer):
    """Syntax newer than 3.11's, as 3.11 reads it, every statement on its lines."""

    def visit_ConcatenatedString(self, node: cst.BaseString) -> bool:
        return False  # a string is replaced whole, or kept whole

    visit_FormattedString = visit_TemplatedString = visit_ConcatenatedString

    def leave_ConcatenatedString(self, original: cst.BaseString, updated: cst.BaseString) -> cst.BaseExpression:
        if not _formatted(original):
            return updated
        text = cst.Module([]).code_for_node(original)
        # No name, no string a key could be: read as libcst reads it; its words kept for searches of text.
        return cst.parse_expression(f"(-0, {' '.join(text.split())!r}" + "\n" * text.count("\n") + ")")

    leave_FormattedString = leave_TemplatedString = leave_ConcatenatedString

    def leave_ExceptHandler(self, original: cst.ExceptHandler, updated: cst.ExceptHandler) -> cst.ExceptHandler:
        if isinstance(updated.type, cst.Tuple) and not updated.type.lpar:  # 3.14's ``except A, B:``
            return updated.with_changes(type=updated.type.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        return updated

    leave_ExceptStarHandler = leave_ExceptHandler


def _formatted(node: cst.BaseString) -> bool:
    if isinstance(node, cst.ConcatenatedString):
        return _formatted(node.left) or _formatted(node.right)
    return not isinstance(node, cst.SimpleString)


def older_code(node: cst.CSTNode) -> str:
    """The text of ``node`` (a module, a statement) in syntax the running ``ast`` reads,
    but for type parameters (``newsyntax``'s)."""
    return cst.Module([]).code_for_node(node.visit(_Older()))


def dotted_name(expr: cst.BaseExpression) -> str | None:
    """As ``ast_summary.dotted_name``, of a libcst node."""
    if isinstance(expr, cst.Subscript):  # Generic-style bases: Base[T]
        expr = expr.value
    if isinstance(expr, (cst.Name, cst.Attribute)):
        return get_full_name_for_node(expr)
    return None


def factory_member(stmt: cst.SimpleStatementLine, key: str, bridge: Bridge) -> cst.DictElement | None:
    """The member ``key`` of the dict of a statement ``Name = type(name, bases, {...})``:
    ``ast_summary.member_index`` of ``ast``'s statement, as libcst's element."""
    index = member_index(bridge.ast_of(stmt.body[0]).value.args[2], key)
    return stmt.body[0].value.args[2].value.elements[index] if index is not None else None
