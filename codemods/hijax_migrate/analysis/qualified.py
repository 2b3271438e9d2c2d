"""libcst's qualified names of the nodes a rule asks about, from the name
model (``names``): without libcst's scope analysis of the module (1.7 s of
jax's 67 kB hijax_test.py).

The model is sure of libcst's answer for a dotted name (a ``Name``, an
``Attribute`` chain, a call or subscript of one) whose head is

- bound nowhere in the module (no binding in any scope, no ``global``): the
  builtin of that name, or nothing;
- bound by module-level imports alone, every module-level read of it after
  them: what those imports qualify it to (``names.import_qualified``), from
  the longest bound prefix, as libcst's ``Scope.get_qualified_names_for``.

In either case libcst's answer does not depend on the scope the node stands
in, nor on whether it is an access. A node libcst's scopes never enter (an
attribute's name, a keyword, a ``global``'s names, anything inside an import)
has none; its place is read from the node's ancestors. Elsewhere, a read's
head is resolved as Python resolves it (``resolution.resolve_in``: the reads
of that name in the statement around it, where they all resolve alike): an
import's names, a local's under its block's prefix (``f.<locals>.x``), as
libcst names them; where Python reads otherwise than libcst's scopes (a read
before the import that binds it, a class body's read before the class binds
the name) the answer is Python's. What neither answers (a target, a node in a
``match``, in a decorator, in the first argument of a call that may be
``typing.NewType``) is libcst's own, from its ``ScopeProvider`` (public API),
resolved once a tree when first needed: on no golden input.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedName, QualifiedNameSource, ScopeProvider

from .names import NameModel, sure_names
from .nodes import is_store, parents_under
from .resolution import Resolved, qualified, resolve_in

# A node under these has no scope in libcst's analysis (never visited by it).
_NO_SCOPE = (cst.Import, cst.ImportFrom, cst.NameItem)
# Where the model does not follow libcst's visit: its scopes answer.
_UNSURE = (cst.Match, cst.MatchCase)
_TYPE_MAKERS = {"typing.NewType", "typing.TypeVar"}
_SOURCES = {
    "builtin": QualifiedNameSource.BUILTIN,
    "import": QualifiedNameSource.IMPORT,
    "local": QualifiedNameSource.LOCAL,
}


def model_of(code: str | None) -> NameModel | None:
    """The name model of ``code`` (None: no text, or one ``ast`` cannot read as it stands)."""
    if code is None:
        return None
    memo = _MEMO.get("model")
    if memo is not None and memo[0] is code:
        return memo[1]
    from ..sources.parse import python_tree

    try:
        model = NameModel.of(python_tree(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        model = None
    _MEMO["model"] = (code, model)
    return model


_MEMO: dict = {}  # the last text's model: a pure function's memo


class Qualifier:
    """Qualified names node by node: the model's where it is sure, else libcst's scopes."""

    def __init__(self, model: NameModel | None, wrapper: cst.MetadataWrapper | None, bridge=None):
        """``bridge``: made when first asked, the tree's statements paired with ``ast``'s
        (``bridge.Bridge``), as the model read them; None: not known."""
        self.model, self.wrapper, self._bridge = model, wrapper, bridge
        self._scopes = None
        self._parents: dict | None = None  # every node's, made once a tree where a visit did not give them
        self.unsure = 0  # how many answers came from libcst's scopes

    def names(self, node: cst.CSTNode, ancestors: Sequence[cst.CSTNode] | None) -> set[QualifiedName]:
        """``ancestors``: the node's, nearest first, up to the module (None: not known)."""
        sure = self.sure(node)
        if ancestors is None and self.model is not None and (sure is not None or self._bridge is not None):
            ancestors = self._ancestors(node)  # the place decides: a walk of fields, not libcst's scopes
        place = _place(node, ancestors, self.sure) if ancestors is not None else "unsure"
        if place == "none":
            return set()
        if place == "expression":
            found = sure if sure is not None else self._resolved(node, ancestors)
            if found is not None:
                return found
        return self.from_scopes(node)

    def _resolved(self, node: cst.CSTNode, ancestors: Sequence[cst.CSTNode]) -> set[QualifiedName] | None:
        full = get_full_name_for_node(node)
        found = self._resolve(node, full, ancestors) if full is not None else None
        if found is None:
            return None
        return {QualifiedName(name, _SOURCES[source]) for source, name in qualified(found, full)}

    def resolution(self, node: cst.CSTNode, ancestors: Sequence[cst.CSTNode] | None) -> Resolved | None:
        """What the head of a dotted name read at ``node`` resolves to, from the reads of
        that name in the statement around it, where they all resolve alike
        (``resolution.resolve_in``); None: not known, or ``node`` binds or deletes it."""
        full = get_full_name_for_node(node)
        return self._resolve(node, full, ancestors) if full is not None else None

    def _resolve(self, node: cst.CSTNode, full: str, ancestors: Sequence[cst.CSTNode] | None) -> Resolved | None:
        bridge = self._bridge() if self._bridge is not None else None
        if self.model is None or bridge is None or not bridge.as_written:
            return None
        if ancestors is None:
            ancestors = self._ancestors(node)
        if ancestors is None or (isinstance(node, cst.Name) and _binds(node, ancestors)):
            return None  # a target: libcst names what it binds, not what it reads
        stmt = next(filter(None, map(bridge.paired, ancestors)), None)
        return resolve_in(self.model, stmt, full.partition(".")[0]) if stmt is not None else None

    def _ancestors(self, node: cst.CSTNode) -> list | None:
        if self._parents is None:
            self._parents = parents_under(self.wrapper.module) if self.wrapper is not None else {}
        return ancestors_from(self._parents, node)

    def may_end_in(self, node: cst.CSTNode, lasts) -> bool:
        """May a qualified name of ``node`` end in one of ``lasts``? Each of libcst's
        ends as the node's dotted name, or (its whole name bound by ``import ... as``)
        as the imported name, or (a builtin) as its head: so a rule asks of these only."""
        full = get_full_name_for_node(node)
        if full is None or self.model is None:
            return full is not None
        if full.rpartition(".")[2] in lasts or full.partition(".")[0] in lasts:
            return True
        return any(
            isinstance(b.node, ast.alias) and b.node.name.rpartition(".")[2] in lasts
            for b in self.model.bindings.get(full, ())
        )

    def sure(self, node: cst.CSTNode) -> set[QualifiedName] | None:
        """The model's answer for a node standing where libcst's scopes read it (None: not sure)."""
        return self.sure_of(get_full_name_for_node(node))

    def sure_of(self, full: str | None) -> set[QualifiedName] | None:
        """``sure`` for a dotted name (``ast_summary.full_name``'s, of an ``ast`` expression)."""
        found = sure_names(self.model, full)
        if found is None:
            return None
        return {QualifiedName(name, _SOURCES[found[0]]) for name in found[1]}

    def from_scopes(self, node: cst.CSTNode) -> set[QualifiedName]:
        self.unsure += 1
        if self._scopes is None:
            self._scopes = self.wrapper.resolve(ScopeProvider)
        scope = self._scopes.get(node)
        return set(scope.get_qualified_names_for(node)) if scope is not None else set()


def _place(node: cst.CSTNode, ancestors: Sequence[cst.CSTNode], sure) -> str:
    """ "none" (libcst's scopes never enter it), "expression", or "unsure"."""
    parent = ancestors[0] if ancestors else None
    if (
        isinstance(parent, cst.Attribute)
        and parent.attr is node
        or isinstance(parent, cst.Arg)
        and parent.keyword is node
        or any(isinstance(a, _NO_SCOPE) for a in ancestors)
    ):
        return "none"
    child = node
    for above in ancestors:
        if isinstance(above, _UNSURE):
            return "unsure"
        if isinstance(above, cst.Call) and above.args and above.args[0] is child:
            names = sure(above)  # ``NewType(x, ...)``: libcst's scopes leave ``x`` unvisited
            if names is None:
                return "unsure"
            if {q.name for q in names} & _TYPE_MAKERS:
                return "none"
        child = above
    return "expression"


def _binds(node: cst.Name, ancestors: Sequence[cst.CSTNode]) -> bool:
    """Is ``node`` a name a statement binds (a target, a ``def``'s or parameter's name) or deletes?"""
    parent = ancestors[0] if ancestors else None
    if isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef)) and parent.name is node:
        return True
    return isinstance(parent, cst.Del) or is_store(node, dict(zip([node, *ancestors], ancestors)))


def ancestors_from(parents: dict, node: cst.CSTNode, above: Sequence[cst.CSTNode] = ()) -> list | None:
    """``above`` (the node's nearest ancestors a visit has not entered, nearest
    first), then those ``parents`` (node -> parent, of the nodes a visit entered) gives."""
    chain, last = list(above), above[-1] if above else node
    if last not in parents:
        return None if not isinstance(last, cst.Module) else chain[:-1]
    while last in parents:
        last = parents[last]
        chain.append(last)
    return chain if isinstance(last, cst.Module) else None
