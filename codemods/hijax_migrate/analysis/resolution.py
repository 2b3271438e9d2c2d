"""Which bindings a read of a name may be: Python's resolution of names, over the name model.

The execution model (the reference, 4.2.2): a name bound in a block is local to it; a
read resolves to the nearest block around it where the name is local, class blocks
skipped for the blocks inside them, then the builtins. A comprehension's ``:=`` binds
in the block around it. In a function every binding of the name there may be the one
read. Code at module or class level runs in order, and so does a class body or a
comprehension standing there: a read made then is the bindings of the block that
stand before it (a read at the block's top level, in no loop, never sees what the
block binds after it, nor what the module binds after a class statement standing at
its top level, whose body runs there), and where none surely ran (each in an ``if``, a loop, a ``try``, a
handler, a pattern), what the block sees of an unbound name: the module's for a class
body, the builtins for the module's. A read in a function runs when it is called,
after any module-level binding. Not followed (None): a name some ``global``,
``nonlocal`` or ``del`` names, or one its block binds after the read (which a loop
around both may have run first)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..core.stmts import held
from .names import Binding, NameModel, NameScope, block_of, import_qualified, is_builtin

_FUNCTIONS = ("function", "lambda", "annotation")
_AT_ONCE = ("class", "comprehension")  # blocks whose code runs where they stand
_IN_ORDER = ("module", "class", "function")  # blocks whose straight statements run in order (a call each)


@dataclass(frozen=True)
class Resolved:
    bindings: tuple[Binding, ...]  # the bindings the read may be
    unbound: bool  # it may find none in its block: a builtin, or a NameError


def resolve(model: NameModel, where: NameScope, name: str, at: ast.AST) -> Resolved | None:
    """The read of ``name`` at ``at`` (a node with its position) in the block ``where``."""
    if name in model.declared or _deleted(model, name):
        return None
    blocks, at_once = _blocks(model, name), True
    for scope in _path(where):
        mine = tuple(b for b, block in blocks if block is scope)
        if mine and scope.kind in _IN_ORDER and id(at) in model.straight and _runs_in_order(where, scope):
            mine = tuple(b for b in mine if _made_before(b, at))  # what the block binds later runs later
            if not mine:
                return _unbound_in(model, scope, name, at)
        if mine:
            return _in_block(model, scope, name, mine, at if at_once else None)
        at_once = at_once and scope.kind in _AT_ONCE  # a class skipped on the way runs at once too
    return Resolved((), True)


def visible(model: NameModel, where: NameScope, name: str) -> tuple[Binding, ...] | None:
    """Every binding of ``name`` in the nearest block that binds it, seen from ``where``,
    wherever it stands in that block (None: not followed, as for ``resolve``)."""
    if name in model.declared or _deleted(model, name):
        return None
    block = resolving_block(model, where, name)
    return tuple(b for b, at in _blocks(model, name) if at is block) if block is not None else ()


def resolving_block(model: NameModel, where: NameScope, name: str) -> NameScope | None:
    """The nearest block that binds ``name``, seen from ``where`` (None: none does)."""
    blocks = {id(block) for _, block in _blocks(model, name)}
    return next((scope for scope in _path(where) if id(scope) in blocks), None)


def reached_first(where: NameScope, block: NameScope, other: NameScope | None) -> bool:
    """Does a read in ``where`` look in ``block`` before ``other`` (None: the builtins)?"""
    for scope in _path(where):
        if scope is other:
            return False
        if scope is block:
            return True
    return False


def runs_at_once(where: NameScope) -> bool:
    """Does code in ``where`` run as the module's does, where it stands (a class body, a
    comprehension at module level), not when a function is called?"""
    scope = where
    while scope.parent is not None:
        if scope.kind not in _AT_ONCE:
            return False
        scope = scope.parent
    return True


def _runs_in_order(where: NameScope, block: NameScope) -> bool:
    """Does straight-line code of ``where`` run as ``block``'s does, where it stands: it is
    ``block``, or a class body whose statement stands straight in it (through class bodies)?"""
    scope = where
    while scope is not block:
        if not scope.in_order or scope.parent is None:
            return False
        scope = scope.parent
    return True


def _path(where: NameScope):
    """The blocks a read in ``where`` looks in, in order: its own, then those around it
    but class bodies (the reference, 4.2.2)."""
    scope, first = where, True
    while scope is not None:
        if first or scope.kind != "class":
            yield scope
        scope, first = scope.parent, False


def _in_block(model: NameModel, scope: NameScope, name: str, mine: tuple[Binding, ...], at) -> Resolved | None:
    """``at``: the read, where it runs as the block's code does (None: later, when called)."""
    if scope.kind in _FUNCTIONS or scope.kind == "comprehension":
        return Resolved(mine, False)
    if at is not None and not all(_made_before(b, at) for b in mine):
        return None  # run after the read, or before it by a loop around both: not followed
    if any(not b.guarded for b in mine):
        return Resolved(mine, False)
    if scope.kind == "module" or at is None:
        return Resolved(mine, True)
    outer = resolve(model, _module_of(scope), name, at)  # a class body's unbound names are the module's
    return None if outer is None else Resolved(mine + outer.bindings, outer.unbound)


def _unbound_in(model: NameModel, scope: NameScope, name: str, at: ast.AST) -> Resolved | None:
    """A read its block (run at once) has not bound yet: a class body's is the module's,
    another's a builtin or a NameError."""
    return resolve(model, _module_of(scope), name, at) if scope.kind == "class" else Resolved((), True)


def _blocks(model: NameModel, name: str) -> list[tuple[Binding, NameScope]]:
    """Each binding of ``name`` with the block it binds in."""
    return [(binding, block_of(binding)) for binding in model.bindings.get(name, ())]


def _deleted(model: NameModel, name: str) -> bool:
    return any(isinstance(read.ctx, ast.Del) for _, read in model.reads.get(name, ()))


def _made_before(binding: Binding, at: ast.AST) -> bool:
    """Is the binding made before ``at`` runs, in a block's order? (``names._made_at``)"""
    return binding.after is None or binding.after <= (at.lineno, at.col_offset)


def _module_of(scope: NameScope) -> NameScope:
    while scope.parent is not None:
        scope = scope.parent
    return scope


def resolve_in(model: NameModel, stmt: ast.stmt, name: str) -> Resolved | None:
    """The reads of ``name`` that ``stmt`` makes itself (none in a statement it holds),
    resolved, where they all resolve alike (None: they do not, none is there, or one is
    not followed)."""
    inner = list(held(stmt))
    found = {
        resolve(model, scope, name, node)
        for scope, node in model.reads.get(name, ())
        if _within(node, stmt) and not any(_within(node, child) for child in inner)
    }
    return found.pop() if len(found) == 1 else None


def constant_assignment(found: Resolved | None) -> ast.Assign | ast.AnnAssign | None:
    """The statement a resolved read stands for where it is one binding, at module level,
    the one target of an assignment (``_SUPPORTED = "0.11.0"``, ``X: T = v``); else None."""
    if found is None or found.unbound or len(found.bindings) != 1:
        return None
    binding = found.bindings[0]
    stmt = binding.within
    if binding.scope.parent is not None or binding.walrus:
        return None
    if isinstance(stmt, ast.Assign) and stmt.targets == [binding.node]:
        return stmt
    if isinstance(stmt, ast.AnnAssign) and stmt.target is binding.node and stmt.value is not None:
        return stmt
    return None


def qualified(found: Resolved, full: str) -> set[tuple[str, str]]:
    """libcst's qualified names, (source, name), of the dotted name ``full`` whose head
    reads ``found``: an import's names, a local one under its block's prefix, else a builtin."""
    names = set()
    for binding in found.bindings:
        if binding.statement is not None:
            names |= {("import", name) for name in import_qualified(binding.statement, full)}
        else:
            prefix = block_of(binding).prefix
            names.add(("local", f"{prefix}.{full}" if prefix else full))
    head = full.partition(".")[0]
    if not found.bindings and is_builtin(head):
        names.add(("builtin", f"builtins.{head}"))
    return names


def _within(node: ast.AST, outer: ast.AST) -> bool:
    return (outer.lineno, outer.col_offset) <= (node.lineno, node.col_offset) and (
        node.end_lineno,
        node.end_col_offset,
    ) <= (outer.end_lineno, outer.end_col_offset)
