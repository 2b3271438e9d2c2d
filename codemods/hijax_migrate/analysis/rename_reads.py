"""The reads of a renamed base, from the name model (``names``) and Python's
resolution of names (``resolution``): without libcst's analysis of the module.

Each read libcst's tree holds is paired with ``ast``'s at its place in source
order; the bindings a read may be are those Python's resolution gives it (a
read ``resolution`` does not follow may be any). A name a type checker may read
inside a string (``x: "Old"``, ``List["Old"]``, ``TypeVar("T", bound="Old")``)
is a read with no name to rename. Where the pairs do not line up, or a name is
a builtin's, no read is followed: every import stays bound by an alias, and a
star import's reads are left with the reason.

Reads and attributes are paired with ``ast``'s in source order, which gives
their lines without libcst's positions (a code generation of the module).
"""

from __future__ import annotations

import ast
import functools

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .bindings import Read
from .cst_blocks import small_statements
from .names import Binding, NameModel, NameScope, block_of, import_qualified, is_builtin, local_names
from .nodes import findall, is_name
from .project import HIJAX_MODULES
from .resolution import Resolved, reached_first, resolve, resolving_block, runs_at_once, visible

# A Name under these is no read: a name after a dot, an import's, a keyword's, a definition's.
_NOT_READ = (
    cst.ImportAlias,
    cst.AsName,
    cst.NameItem,
    cst.Param,
    cst.FunctionDef,
    cst.ClassDef,
    cst.Import,
    cst.ImportFrom,
)


# What reads a module's namespace by keys it may compute: builtins (``vars`` and ``dir``
# only called with no argument: with one, they read that object's), and attributes
# (``sys.modules``, ``importlib.import_module``, a frame's ``f_globals``).
_NAMESPACE_READERS = ("globals", "locals", "eval", "exec", "__import__")
_WITHOUT_ARGUMENTS = ("vars", "dir")
_NAMESPACE_ATTRIBUTES = ("modules", "import_module", "f_globals")

# Stands for a read inside a string: a type checker's, no Name of libcst's to rename.
IN_A_STRING = cst.SimpleString('""')


class ModelReads:
    """What the import plan asks of the reads of ``old`` (``bindings.plan_imports``):
    ``reads``, libcst's, in source order; ``imports``: each ImportFrom's ``ast`` statement."""

    def __init__(self, model: NameModel, old: str, new: str, reads: list[cst.Name], imports: dict, module: cst.Module):
        self.model, self.old, self.new, self.imports, self.reads = model, old, new, imports, reads
        self.module = module
        found = sorted(model.reads.get(old, ()), key=lambda pair: (pair[1].lineno, pair[1].col_offset))
        followed = len(found) == len(reads) and not is_builtin(old) and not is_builtin(new)
        rebinds = _star_over_a_binding(model, old)
        self.why = "is bound here besides, where jax's star import binds it over what ran before" if rebinds else None
        self.pairs = list(zip(reads, found)) if followed and not rebinds else None
        self.typed = [IN_A_STRING] if any(_names_in(text, old) for text in model.typed_strings) else []

    @functools.cached_property
    def _resolved(self) -> list[tuple[cst.Name, NameScope, ast.Name, Resolved | None]]:
        """Each read paired with ``ast``'s, its block, and what it resolves to: once for every question."""
        return [(name, scope, read, resolve(self.model, scope, self.old, read)) for name, (scope, read) in self.pairs]

    def _binding(self, node: cst.ImportFrom, bound: str) -> Binding | None:
        """The binding of ``bound`` that ``node`` makes (None: its ``ast`` statement is not known)."""
        stmt = self.imports.get(node)
        return next((b for b in self.model.bindings.get(bound, ()) if b.statement is stmt), None) if stmt else None

    def of_import(self, node: cst.ImportFrom, bound: str) -> list[Read]:
        binding = self._binding(node, bound)
        if binding is None or self.pairs is None:
            return [Read(name, 2, True) for name in self.reads]  # any may be it: none is renamed
        found = []
        for name, scope, _, resolved in self._resolved:
            if resolved is None:
                found.append(Read(name, 2, True))
            elif binding in resolved.bindings:
                found.append(Read(name, len(resolved.bindings), self._shadowed(scope)))
        return found + [Read(string, 1, False) for string in self.typed]

    def import_shadowed(self, node: cst.ImportFrom) -> bool:
        """May the import, renamed, not be all a read of the new name finds? Something else
        binds it where the import stands, or a read of it would find the import where it
        finds another binding or none now (``_captured``)."""
        binding = self._binding(node, self.old)  # asked of an import binding the old name itself
        return binding is None or self._shadowed(binding.scope) or self._captured(binding.scope)

    def _captured(self, block: NameScope) -> bool:
        """Would the new name bound in ``block`` be what a read of it finds, where it finds
        another binding or none now (a read in a function, whose import of the old name
        becomes a local binding of the new one)? In ``block`` itself, where the new name is
        bound later too: a read that may find it unbound when it runs (a NameError now), or
        one in a function, which may be called before that later binding runs."""
        for scope, read in self.model.reads.get(self.new, ()):
            resolved = resolve(self.model, scope, self.new, read)
            nearest = resolving_block(self.model, scope, self.new)
            if resolved is None or reached_first(scope, block, nearest):
                return True
            if nearest is block and (resolved.unbound or not runs_at_once(scope)):
                return True
        return False

    def unbound(self, old: str) -> list[Read]:
        """The reads no binding of the module may be (a star import's, if any), and those that
        may be either a binding or none (a class body's, where it may not run); ``old``: this
        reader's own."""
        if self.pairs is None:
            return [Read(name, 0, True, self.why) for name in self.reads]
        found = []
        for name, scope, read, resolved in self._resolved:
            if resolved is None:
                found.append(Read(name, 0, True, _UNFOLLOWED))
            elif not resolved.bindings and _local(self.model, scope, self.old):
                continue  # its function binds the name later: an UnboundLocalError, no import's read
            elif not resolved.bindings:
                early = not self._star_ran(scope, read) and bool(visible(self.model, scope, self.new))
                found.append(Read(name, 0, early or self._shadowed(scope), _EARLY if early else None))
            elif resolved.unbound:  # a class body's binding, where it ran; else the module's, the star's
                found.append(Read(name, 0, True, _EITHER))
        return found + [Read(string, 0, False) for string in self.typed]

    def namespace_read(self) -> bool:
        return self._namespace_read

    @functools.cached_property
    def _namespace_read(self) -> bool:
        """Does the module read its namespace by keys it does not spell (``globals()``,
        ``vars()``, ``locals()``, ``dir()``, ``eval``, ``exec``, ``__import__``, its own
        object from ``sys.modules``, a frame's ``f_globals``)? A renamed import adds the new
        name's key there (``globals()["HiPrim"]``, ``"HiPrim" in globals()`` find it where
        they found none): the import keeps the old name (an alias), as the namespace was.
        Worked out once: each import of the old name asks."""
        if any(self.model.reads.get(name) for name in _NAMESPACE_READERS):
            return True
        if any(self.model.attributes.get(attr) for attr in _NAMESPACE_ATTRIBUTES):
            return True
        reads = sum(len(self.model.reads.get(name, ())) for name in _WITHOUT_ARGUMENTS)
        if not reads:
            return False
        calls = [c for c in findall(self.module, cst.Call) if is_name(c.func, *_WITHOUT_ARGUMENTS)]
        return len(calls) < reads or any(not call.args for call in calls)  # a read not called: handed on

    def read_unbound(self) -> bool:
        """Does a read of the old name find no binding where it runs (a NameError: read before
        the import, in a module with no star import), or may it, in a function, where the new
        name is bound (``_new_bound_first``)? The import then keeps the old name bound (an
        alias): renamed outright, the name would be bound nowhere, or found bound."""
        reads = self._resolved if self.pairs else ()
        if any(resolved is not None and self._new_bound_first(scope, resolved) for _, scope, _, resolved in reads):
            return True
        return not self.model.star_bindings and any(
            resolved is None or not resolved.bindings or _guarded_locals(resolved) for *_, resolved in reads
        )

    def _new_bound_first(self, scope: NameScope, resolved: Resolved) -> bool:
        """May a read in a function (called when, not known) find the old name unbound where
        the new name is bound already? The new name is bound in another block than the old,
        or in the same before its first binding that surely runs (in no ``if``, loop or
        ``try``). Renamed, the read would find that binding where it raises a NameError now
        (the function called in between: ``f = lambda: Old; f()`` above the import)."""
        if runs_at_once(scope) or not resolved.bindings:
            return False
        news = visible(self.model, scope, self.new)
        if not news:
            return news is None
        block = resolving_block(self.model, scope, self.old)
        if block is None or block is not resolving_block(self.model, scope, self.new):
            return True
        made = [b.after for b in resolved.bindings if not b.guarded]
        if not made or None in made or any(b.after is None for b in news):
            return True
        return min(b.after for b in news) < min(made)

    def _star_ran(self, scope: NameScope, read: ast.Name) -> bool:
        """Has jax's ``import *`` surely run when the read does (else, renamed, it may find
        the new name bound otherwise)? Read as the module runs, one stands before it, in no
        ``if`` or ``try``; read in a function, when it is called: not known."""
        if not runs_at_once(scope):
            return False
        at = (read.lineno, read.col_offset)
        return any(
            _hijax_import(star.statement) and star.scope.parent is None and not star.guarded and star.after <= at
            for star in self.model.star_bindings
        )

    def _shadowed(self, scope: NameScope) -> bool:
        """Does anything but an import from jax's hijax modules bind the new name where ``scope`` sees it?"""
        found = visible(self.model, scope, self.new)
        return found is None or any(b.statement is None or not _hijax_import(b.statement) for b in found)


def _star_over_a_binding(model: NameModel, old: str) -> bool:
    """Does jax's ``import *`` bind the old name beside a module-level binding of it (at 0.11
    it does, at 0.12 no longer), so that a read may find either: over another binding made
    before it, or before one made after it (a function called in between)? Not followed then."""
    stars = [star.after for star in model.star_bindings if _hijax_import(star.statement)]
    if not stars:
        return False
    for b in model.bindings.get(old, ()):
        if b.scope.parent is None and b.after is not None:
            other = b.statement is None or not _hijax_import(b.statement)
            if (other and b.after < max(stars)) or b.after > min(stars):
                return True
    return False


_UNFOLLOWED = "is bound where a read of it is not followed (a `global`, a `del`, a binding after a read)"
_EITHER = (
    "is bound in a class body where it may not run (in an `if`, a loop, a `try`, a handler), "
    "and a read there finds jax's star import's otherwise"
)
_EARLY = "may be read before jax's star import has run (above it, in a function, or with it in an `if`)"


def _local(model: NameModel, scope: NameScope, name: str) -> bool:
    """Is ``name`` local to a function around ``scope`` (the nearest block binding it), so that
    a read there finding no binding raises UnboundLocalError, never reading an import or a star?"""
    block = resolving_block(model, scope, name)
    return block is not None and block.kind == "function"


def _guarded_locals(resolved: Resolved) -> bool:
    """Is every binding a read may be a function's local in a block of it (an ``if``, a
    ``try``, a loop), which may not have run: an UnboundLocalError, where renamed the read
    may find the new name bound otherwise in that function?"""
    return all(b.guarded and block_of(b).kind in ("function", "lambda") for b in resolved.bindings)


def model_reads(model: NameModel, old: str, new: str, reads: list[cst.Name], module: cst.Module) -> ModelReads:
    """The reads of ``old`` (``reads``: libcst's, in source order) in ``module``."""
    statements = small_statements(module, cst.ImportFrom)
    ordered = sorted(model.import_froms, key=lambda n: (n.lineno, n.col_offset))
    imports = dict(zip(statements, ordered)) if import_lines(statements, model.import_froms) else {}
    return ModelReads(model, old, new, reads, imports, module)


def _names_in(text: str, name: str) -> bool:
    """Does ``text``, read as code (as a type checker reads a string type), name ``name``?"""
    if name not in text:
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(tree))


def _hijax_import(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module in HIJAX_MODULES


def is_read(name: cst.Name, parents) -> bool:
    """Does libcst's scope analysis record ``name`` as a read (or a store)?"""
    node, parent = name, parents.get(name)
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return False
    while isinstance(parent, cst.Attribute):
        node, parent = parent, parents.get(parent)
    if isinstance(parent, cst.Param) and parent.default is node:
        return True  # a default, read where the ``def`` or ``lambda`` stands (a parameter's name is none)
    # A class pattern's keyword (``case C(Old=1)``) is a read to libcst's scopes, none to ``ast``'s:
    # counted, so that the counts differ and libcst's scopes decide.
    return not isinstance(parent, _NOT_READ) and not (
        isinstance(parent, (cst.MatchAs, cst.MatchStar, cst.MatchMappingElement))
    )


def attribute_names(model: NameModel, node: cst.Attribute, parents) -> set[str] | None:
    """libcst's qualified names of an attribute chain (never an access itself,
    for a name no ``import a.b`` binds), where its head is bound by
    module-level imports alone (None: libcst decides). An import's own
    names have none: libcst's scopes never enter them."""
    full = get_full_name_for_node(node)
    if full is None or _in_import(node, parents):
        return set()
    head = full.partition(".")[0]
    found = model.imported_only(head)
    if found is None:
        return local_names(model, head, full)
    if any(
        isinstance(b.statement, ast.Import) and b.node.asname is None and f"{b.node.name}.".startswith(f"{full}.")
        for b in found
    ):
        return None  # ``import a.b.Old``: the chain itself may be what is read
    prefix = full
    while prefix:
        statements = [b.statement for b in found if _binds(b, prefix)]
        if statements:
            return {name for stmt in _unique(statements) for name in import_qualified(stmt, full)}
        if "." not in prefix:
            return {f"builtins.{prefix}"} if is_builtin(prefix) else set()
        prefix = prefix.rpartition(".")[0]
    return set()


def _in_import(node: cst.CSTNode, parents) -> bool:
    parent = parents.get(node)
    while isinstance(parent, cst.Attribute):
        parent = parents.get(parent)
    return isinstance(parent, (cst.Import, cst.ImportFrom, cst.ImportAlias))


def _binds(binding, prefix: str) -> bool:
    alias = binding.node
    if alias.asname:
        return alias.asname == prefix
    return alias.name == prefix or alias.name.startswith(f"{prefix}.")


def _unique(statements: list) -> list:
    seen, found = set(), []
    for stmt in statements:
        if id(stmt) not in seen:
            seen.add(id(stmt))
            found.append(stmt)
    return found


def paired_lines(nodes: list[cst.CSTNode], ast_nodes: list[ast.AST]) -> dict[cst.CSTNode, int]:
    """Each node's line, from ``ast``'s node at its place in source order (none where the counts differ)."""
    if len(nodes) != len(ast_nodes):
        return {}
    return {node: found.lineno for node, found in zip(nodes, ast_nodes)}


def import_lines(nodes: list[cst.ImportFrom], tree: list[ast.ImportFrom]) -> dict[cst.CSTNode, int]:
    """The lines of ``nodes`` (every ImportFrom of the module, in source order),
    where each is ``ast``'s at its place (same module and level)."""
    found = sorted(tree, key=lambda n: (n.lineno, n.col_offset))
    if len(found) != len(nodes) or any(
        len(node.relative) != stmt.level
        or (get_full_name_for_node(node.module) if node.module else None) != stmt.module
        for node, stmt in zip(nodes, found)
    ):
        return {}
    return {node: stmt.lineno for node, stmt in zip(nodes, found)}
