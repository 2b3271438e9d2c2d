"""One function's own block, read from ``ast`` (the name model's scopes): the names it
binds, and every read that reaches one of its bindings, its own or a nested block's.

Python's execution model: a function's block binds its parameters and every name a
binding operation targets in it (assignment, augmented assignment, ``for``, ``with ...
as``, ``except ... as``, ``import``, ``def``, ``class``, a pattern's capture, ``del``,
``:=``, which in a comprehension binds in the function around it). A nested function,
lambda or comprehension is a block of its own; a class body is one that the functions
in it do not see. A read resolves to the nearest block around it that binds the name.
``global`` and ``nonlocal`` are not followed: a name one of them declares anywhere in
the function counts as bound again (never read as one binding)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .names import NameModel, NameScope, block_of


@dataclass
class FunctionNames:
    func: ast.FunctionDef | ast.AsyncFunctionDef
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)  # name -> its bindings in the own block
    reads: dict[str, list[ast.Name]] = field(default_factory=dict)  # name -> reads reaching the own block
    own: set[int] = field(default_factory=set)  # ids of the reads standing in the own block itself
    declared: set[str] = field(default_factory=set)  # in a ``global`` or ``nonlocal`` anywhere in it

    @classmethod
    def of(cls, func: ast.FunctionDef | ast.AsyncFunctionDef) -> FunctionNames:
        model = NameModel.of(ast.Module(body=[func], type_ignores=[]))
        found = cls(func, declared=set(model.declared))
        scope = _own_scope(model, func)
        # ``del x`` binds x in its block, as an assignment does (the model counts it a read)
        deleted = {
            name: [(w, r) for w, r in reads if isinstance(r.ctx, ast.Del)] for name, reads in model.reads.items()
        }
        for name in {*model.bindings, *(name for name, dels in deleted.items() if dels)}:
            mine = [b.node for b in model.bindings.get(name, ()) if b.scope is scope or block_of(b) is scope]
            mine += [read for where, read in deleted.get(name, ()) if where is scope]
            if mine:
                found.bindings[name] = sorted(mine, key=_place)
        for name, reads in model.reads.items():
            dels = {id(where) for where, _ in deleted[name]}
            reaching = [(w, r) for w, r in reads if _resolves(model, w, name, dels) is scope]
            if reaching:
                found.reads[name] = sorted((read for _, read in reaching), key=_place)
                found.own |= {id(read) for where, read in reaching if where is scope}
        return found

    def bound_once(self, name: str) -> bool:
        """Bound in the own block by one binding operation alone (a parameter, most often)."""
        return name not in self.declared and len(self.bindings.get(name, ())) == 1


def _own_scope(model: NameModel, func) -> NameScope | None:
    """The block of ``func`` (None: nothing binds or reads a name in it): the function
    block directly under the module's, around any binding or read."""
    every = [b.scope for bindings in model.bindings.values() for b in bindings]
    every += [scope for reads in model.reads.values() for scope, _ in reads]
    for scope in every:
        while scope.parent is not None and scope.parent.parent is not None:
            scope = scope.parent
        if scope.parent is not None and scope.kind == "function":
            return scope
    return None


def _resolves(model: NameModel, where: NameScope, name: str, dels: set[int]) -> NameScope | None:
    """The block a read of ``name`` in ``where`` reaches (None: the module's, or a builtin);
    ``dels``: the blocks that ``del`` it (which binds it there)."""
    found = model.bindings.get(name, ())
    binders = {id(b.scope) for b in found} | {id(block_of(b)) for b in found} | dels
    scope, first = where, True
    while scope is not None and scope.parent is not None:
        if (first or scope.kind != "class") and id(scope) in binders:
            return scope
        scope, first = scope.parent, False
    return None


def _place(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def module_function(model: NameModel, body: list[ast.stmt], read: ast.Name):
    """What a call of the name ``read`` reaches, by the module's name model (whose positions
    are ``read``'s): "local" (a block around the read binds it, class bodies skipped), the
    ``def`` in ``body`` (the module's statements) that is the name's one module-level
    binding, or "none" (no such def, or ``global``/``nonlocal`` names it: not followed).
    A comprehension's ``:=`` binds in the block around the comprehension."""
    name = read.id
    where = next((s for s, r in model.reads.get(name, ()) if _place(r) == _place(read)), None)
    if where is None or name in model.declared:
        return "none"
    blocks = [block_of(b) for b in model.bindings.get(name, [])]
    scope = where
    while scope.parent is not None:
        if scope.kind != "class" and any(block is scope for block in blocks):
            return "local"
        scope = scope.parent
    at_module = [b.node for b, block in zip(model.bindings.get(name, []), blocks) if block is scope]
    if len(at_module) != 1 or not isinstance(at_module[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return "none"
    return next((s for s in body if _place(s) == _place(at_module[0]) and getattr(s, "name", None) == name), "none")
