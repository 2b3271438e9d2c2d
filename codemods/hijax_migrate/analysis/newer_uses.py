"""Uses of hijax names newer than the target release, read from ``ast``.

``from jax.experimental.hijax import jvp_from_lin``, or ``hjx.jvp_from_lin``
where ``hjx`` is imported as one of jax's hijax modules: code already past
the release it would be migrated to (going backwards is not supported). The
one reading of the fact: triage asks whether there is any, and the engine
(``engine.newer_imports``) reads no module where it finds none.

Names resolve as libcst's qualified names do, a little wider: an attribute's
dotted name (calls and subscripts standing for what they apply to) with its
head replaced by what any import in the module binds it to, in any scope.
Neither an import nor an attribute inside ``if``, ``try``, a conditional
expression or ``and``/``or`` counts: those may be version switches.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..core.stmts import statements
from ..core.versions import ADDED_NAMES, Version, added_in
from .ast_summary import full_name
from .chains import HIJAX_MODULES
from .line_walk import spans, word_lines

_SWITCHES = (ast.If, ast.Try, ast.IfExp, ast.BoolOp, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


@dataclass(frozen=True)
class NewerUse:
    line: int
    name: str  # as jax's module names it
    module: str  # one of HIJAX_MODULES
    since: Version
    attribute: bool  # ``hjx.name``; else an import of the name


def newer_uses(tree: ast.Module, code: str, target: Version) -> list[NewerUse]:
    """The imports, then the attributes, of names newer than ``target``, each in source order."""
    newer = {name for name, since in ADDED_NAMES.items() if since > target and name in code}
    if not newer:
        return []
    nodes = list(_outside_switches(tree, word_lines(code, newer)))
    imports = [use for node in nodes if isinstance(node, ast.ImportFrom) for use in _imported(node, newer)]
    attributes = [node for node in nodes if isinstance(node, ast.Attribute) and node.attr in newer]
    bound = _import_bindings(tree) if attributes else {}
    found = [_attribute_use(node, bound) for node in attributes]
    return [use for use in imports + found if use is not None and use.since > target]


def _outside_switches(tree: ast.Module, lines: list[int] | None):
    """The nodes over ``lines`` (``line_walk``; None: every node), in source order
    (preorder), but those in a version switch. A use stands over a line naming it."""
    stack: list[tuple[ast.AST, list[int] | None]] = [(tree, lines)]
    while stack:
        node, over = stack.pop()
        if isinstance(node, _SWITCHES):
            continue
        yield node
        over = None if isinstance(node, ast.JoinedStr) else over  # placed loosely: walked whole
        children = [child for child in ast.iter_child_nodes(node) if over is None or spans(child, over)]
        stack.extend((child, over) for child in reversed(children))


def _imported(stmt: ast.ImportFrom, newer: set[str]) -> list[NewerUse]:
    if stmt.level or stmt.module not in HIJAX_MODULES:
        return []
    return [
        NewerUse(stmt.lineno, alias.name, stmt.module, added_in(alias.name, stmt.module), False)
        for alias in stmt.names
        if alias.name in newer
    ]


def _import_bindings(tree: ast.Module) -> dict[str, set[str]]:
    """name -> what an import anywhere in the module binds it to (``import a.b``: ``a``;
    relative imports are left out, as libcst names them with their dots)."""
    bound: dict[str, set[str]] = {}
    for node in statements(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                head = alias.name.split(".")[0]
                bound.setdefault(alias.asname or head, set()).add(alias.name if alias.asname else head)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                if alias.name != "*":
                    bound.setdefault(alias.asname or alias.name, set()).add(f"{node.module}.{alias.name}")
    return bound


def _attribute_use(node: ast.Attribute, bound: dict[str, set[str]]) -> NewerUse | None:
    """The newest release any reading of ``node`` as a hijax module's name asks for."""
    dotted = full_name(node)
    head, _, rest = (dotted or "").partition(".")
    uses = []
    for qualified in bound.get(head, ()):
        module, _, name = f"{qualified}.{rest}".rpartition(".")
        since = added_in(name, module) if module in HIJAX_MODULES and name == node.attr else None
        if since is not None:
            uses.append(NewerUse(node.lineno, name, module, since, True))
    return max(uses, key=lambda use: use.since, default=None)
