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
"""

from __future__ import annotations

import ast

import libcst as cst


def add_imports(visitor_type, context, tree: cst.Module) -> cst.Module:
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


def remove_imports(visitor_type, context, tree: cst.Module, requests) -> cst.Module:
    """``requests``: (module, name, alias) of each import asked to go."""
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
