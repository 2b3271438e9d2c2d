"""libcst's import visitors, run on the import statements alone where that
gives the very result of running them on the whole module.

Each visitor walks the whole module with matchers, and RemoveImportsVisitor
also resolves its scopes: on jax's 83 kB hijax_test.py one rule's imports
took 8 s, most of its migration. Yet what they change is local:

- AddImportsVisitor changes only the imports at the top of the module (after
  a docstring) and the blank lines before the statement that follows them.
  It runs on those statements and a stand-in for that one (``pass``, with its
  blank lines and comments).
- RemoveImportsVisitor removes an import only if its name is unused: not
  referenced, exported (``__all__``) nor named in a string annotation. Where
  ``ast`` shows none of that can be (``maybe_used``, a superset), the name is
  unused in the module and in each top-level line importing it alone: each
  such line is run alone.

Anything else (a name that may be used, one imported inside a block, a
stand-in changed beyond its blank lines) runs the visitor on the whole
module, as before. A test holds both ways to the same output.

The visitors write an import list their own way: a new name at the start of
an existing line, the closing parenthesis joined to the last name. Where the
file writes a ``from`` import one name a line (black's exploded form, with
its trailing comma), the edited statement is laid out the same way again
(``kept_layout``): each name on its line, its comment kept, a new name where
a sorted list would have it (else last), the closing parenthesis on its own
line; so black leaves the output of black-formatted input as it is.
"""

from __future__ import annotations

import ast

import libcst as cst


def add_imports(visitor_type, context, tree: cst.Module) -> cst.Module:
    """AddImportsVisitor's result, the file's layout of its import lists kept."""
    return kept_layout(tree, _added(visitor_type, context, tree))


def remove_imports(visitor_type, context, tree: cst.Module, requests) -> cst.Module:
    """RemoveImportsVisitor's result, the file's layout of its import lists kept;
    ``requests``: (module, name, alias) of each import asked to go."""
    return kept_layout(tree, _removed(visitor_type, context, tree, requests))


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


def _removed(visitor_type, context, tree: cst.Module, requests) -> cst.Module:
    names = {alias or name for _, name, alias in requests}
    lines = [
        line
        for line in tree.body
        if isinstance(line, cst.SimpleStatementLine)
        and any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in line.body)
    ]
    if None in names or maybe_used(tree.code, names) != set():  # ``import a.b`` binds ``a``: not a name
        return visitor_type(context).transform_module(tree)
    body = list(tree.body)
    for line in lines:
        if any(name in tree.code_for_node(line) for name in names):
            done = visitor_type(context).transform_module(tree.with_changes(body=[line])).body
            if len(done) > 1:
                return visitor_type(context).transform_module(tree)  # not a removal: not ours to guess
            body = _replaced(body, line, done)
    unchanged = len(body) == len(tree.body) and all(a is b for a, b in zip(body, tree.body))
    return tree if unchanged else tree.with_changes(body=body)


def maybe_used(code: str, names: set[str]) -> set[str] | None:
    """Which of ``names`` the module may use otherwise than by importing them
    at its top level (a superset of what libcst's analysis finds: a name
    read, written, declared global, captured by a pattern, or written in a
    string where a name may stand: an annotation, ``__all__``, a typing
    call or subscript); None where that cannot be told (a name also imported in a block,
    a module this Python cannot parse)."""
    try:
        module = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    typing = _typing_names(module)
    used: set[str] = set()
    for statement, node, quoted in _nodes(module, typing):
        if (
            isinstance(node, (ast.Import, ast.ImportFrom))
            and statement not in module.body
            and names & {alias.asname or alias.name for alias in node.names}
        ):
            return None  # libcst would weigh that import too
        used |= names & (_named(node) | (_quoted(node, names) if quoted else set()))
    return used


def _named(node: ast.AST) -> set[str]:
    """Names libcst may count as uses: ast keeps some patterns' names as strings,
    where libcst has a ``Name`` it reads (``case {**rest}``, ``case C(key=1)``)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return set(node.names)
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return {node.name}
    if isinstance(node, ast.MatchMapping) and node.rest:
        return {node.rest}
    if isinstance(node, ast.MatchClass):
        return set(node.kwd_attrs)
    return set()


def _quoted(node: ast.AST, names: set[str]) -> set[str]:
    """Which of ``names`` a string where a name may stand may hold. libcst
    parses bytes there too, in the encoding they declare: any name, say."""
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, bytes):
        return names
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
    """May a string inside ``node`` stand for a name (libcst's string annotations and exports)?"""
    if (
        isinstance(node, (ast.arg, *_TYPE_PARAMS))
        or node is getattr(statement, "returns", None)
        or (isinstance(statement, ast.AnnAssign) and node is statement.annotation)
    ):
        return True
    if isinstance(node, ast.Subscript):  # ``List["X"]``: libcst reads a typing name's subscript as a type
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


# Calls whose strings libcst may read as annotations (``typing.TypeVar("T", bound="X")``), by
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


def _replaced(body: list, line, done) -> list:
    """``body`` with ``line`` replaced by what the visitor left of it (nothing, or one line)."""
    return [new for old in body for new in ((old,) if old is not line else done)]


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
