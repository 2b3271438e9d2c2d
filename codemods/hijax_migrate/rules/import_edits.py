"""libcst's AddImportsVisitor, run on the import statements alone where that
gives the very result of running it on the whole module; and the file's layout
of its import lists kept after any import edit (removals: ``import_removal``).

The visitor walks the whole module with matchers. Yet what it changes is
local: only the imports at the top of the module (after a docstring) and the
blank lines before the statement that follows them. It runs on those
statements and a stand-in for that one (``pass``, with its blank lines and
comments). Where the stand-in comes back changed beyond its blank lines, or
nothing follows the imports, it runs on the whole module, as before. A test
holds both ways to the same output.

Both edits write an import list libcst's way: a new name at the start of
an existing line, the closing parenthesis joined to the last name. Where the
file writes a ``from`` import one name a line (black's exploded form, with
its trailing comma), the edited statement is laid out the same way again
(``kept_layout``): each name on its line, its comment kept, a new name where
a sorted list would have it (else last), the closing parenthesis on its own
line; so black leaves the output of black-formatted input as it is.
"""

from __future__ import annotations

import libcst as cst


def add_imports(visitor_type, context, tree: cst.Module) -> cst.Module:
    """AddImportsVisitor's result, the file's layout of its import lists kept."""
    return kept_layout(tree, _added(visitor_type, context, tree))


def _added(visitor_type, context, tree: cst.Module) -> cst.Module:
    """AddImportsVisitor's result, from the statements up to the top imports'
    end and a stand-in for the one after them."""
    body = list(tree.body)
    top = 1 if body and isinstance(body[0], cst.SimpleStatementLine) else 0  # a docstring, say
    while top < len(body) and _is_import_line(body[top]):
        top += 1
    if top >= len(body):
        return visitor_type(context).transform_module(tree)  # nothing after the imports to leave out
    follower = body[top]
    stand_in = cst.SimpleStatementLine([cst.Pass()], leading_lines=follower.leading_lines)
    done = visitor_type(context).transform_module(tree.with_changes(body=[*body[:top], stand_in]))
    *head, last = done.body
    if not isinstance(last, cst.SimpleStatementLine) or not last.deep_equals(
        stand_in.with_changes(leading_lines=last.leading_lines)
    ):
        return visitor_type(context).transform_module(tree)  # changed otherwise: not ours to guess
    if last is not stand_in:
        follower = follower.with_changes(leading_lines=last.leading_lines)
    return tree.with_changes(body=[*head, follower, *body[top + 1 :]])


def _is_import_line(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and bool(statement.body)
        and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
    )


def kept_layout(before: cst.Module, after: cst.Module) -> cst.Module:
    """``after`` with each ``from`` import the edit changed laid out as the
    same statement is in ``before``, where that is one name a line."""
    if after is before:
        return after
    old, new = _from_imports(before), _from_imports(after)
    pairs, start = {}, 0
    for node in new:
        match = next((i for i in range(start, len(old)) if _same_source(old[i], node)), None)
        if match is not None:
            start = match + 1
            if not node.deep_equals(old[match]) and _exploded(old[match]) and isinstance(node.names, tuple | list):
                pairs[id(node)] = _laid_out(old[match], node)
    return after.visit(_Replace(pairs)) if pairs else after


def _from_imports(tree: cst.Module) -> list[cst.ImportFrom]:
    found: list[cst.ImportFrom] = []

    class Collect(cst.CSTVisitor):
        def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
            found.append(node)
            return False

    tree.visit(Collect())
    return found


class _Replace(cst.CSTTransformer):
    def __init__(self, pairs: dict) -> None:
        super().__init__()
        self.pairs = pairs

    def leave_ImportFrom(self, original_node, updated_node):
        return self.pairs.get(id(original_node), updated_node)


def _same_source(old: cst.ImportFrom, new: cst.ImportFrom) -> bool:
    """The same module, as far as the statements say (its dots and its name)."""
    code = cst.Module([]).code_for_node
    return len(old.relative) == len(new.relative) and (
        (old.module is None and new.module is None)
        or (old.module is not None and new.module is not None and code(old.module) == code(new.module))
    )


def _exploded(node: cst.ImportFrom) -> bool:
    """One name a line, each with its comma, the parenthesis closed on a line of its own (black's form)."""
    if node.lpar is None or node.rpar is None or not isinstance(node.names, tuple | list):
        return False
    return (
        isinstance(node.lpar.whitespace_after, cst.ParenthesizedWhitespace)
        and all(
            isinstance(a.comma, cst.Comma) and isinstance(a.comma.whitespace_after, cst.ParenthesizedWhitespace)
            for a in node.names
        )
        and node.rpar.whitespace_before.deep_equals(cst.SimpleWhitespace(""))
    )


def _laid_out(old: cst.ImportFrom, new: cst.ImportFrom) -> cst.ImportFrom:
    """``new``'s names, one a line as ``old`` writes them: each name that was
    there keeps its comma (and its comment), a new one takes a plain one."""
    indent = old.lpar.whitespace_after.last_line
    closing = old.names[-1].comma.whitespace_after.last_line
    commas = {_key(alias): alias.comma for alias in old.names}
    names = _ordered([a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in new.names], old)
    plain = cst.Comma(whitespace_after=old.lpar.whitespace_after.with_changes(first_line=cst.TrailingWhitespace()))
    laid = []
    for i, alias in enumerate(names):
        comma = commas.get(_key(alias)) or plain
        line = indent if i < len(names) - 1 else closing
        laid.append(alias.with_changes(comma=comma.with_changes(whitespace_after=_ending(comma, line))))
    return new.with_changes(names=laid, lpar=old.lpar, rpar=old.rpar)


def _ending(comma: cst.Comma, line: cst.SimpleWhitespace) -> cst.ParenthesizedWhitespace:
    """The comma's line break, followed by ``line`` (the next name's indent, or the closing line's)."""
    return comma.whitespace_after.with_changes(last_line=line)


def _ordered(names: list, old: cst.ImportFrom) -> list:
    """The names that were there in their order, the new ones where a sorted
    list has them when the file's list is sorted, else after them."""
    kept = {_key(a) for a in old.names}
    was = [a for a in names if _key(a) in kept]
    added = [a for a in names if _key(a) not in kept]
    written = [_key(a) for a in old.names]
    if written != sorted(written):
        return was + added
    return sorted(was + added, key=_key)


def _key(alias: cst.ImportAlias) -> tuple[str, str]:
    code = cst.Module([]).code_for_node
    return code(alias.name), code(alias.asname.name) if alias.asname else ""
