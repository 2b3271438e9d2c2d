"""Bases bound when the code runs: probed in this file (read from ``ast``), or
reached through a name another module binds so.

``HiPrim = _resolve(...)``, ``Base = getattr(hijax, "HiPrim", None) or
hijax.VJPHiPrimitive``: a name bound by a call whose text names a hijax
class. Which class it is is only known when the code runs; a class whose
base is that name is left as written, with a note. The one reading of the
fact: triage asks whether any class uses a probe (then libcst makes the
note), ``engine.undecided`` maps each probe onto the libcst tree's node.
Likewise ``base_bound_at_run``, for triage and ``engine.runtime``.
"""

from __future__ import annotations

import ast
import re

from ..core.stmts import statements
from .newsyntax import ALIAS
from .returns import returns_values
from .scopes import ClassInfo, Kind, defines_rules

HIJAX_WORDS = ("VJPHiPrimitive", "HiPrim", "NewstyleHiPrimitive")
# An assignment from a call whose arguments name a hijax class, or from getattr:
# the probes are looked for only where this text is.
_MAY_PROBE = re.compile(
    r"=\s*(?:getattr\s*\(|[\w.]+\((?:[^()]|\([^()]*\))*?"
    r"(?:HiPrim|VJPHiPrimitive|NewstyleHiPrimitive))"
)
_LINE_END = re.compile(r"\r\n|\r|\n")  # as ``ast`` counts lines


def assignments(tree: ast.Module) -> list[ast.Assign]:
    """Every assignment statement, in source order (as libcst's tree holds them:
    not the assignments ``newsyntax`` makes of ``type X = ...``)."""
    return sorted(
        (
            node
            for node in statements(tree)
            if isinstance(node, ast.Assign)
            and not (isinstance(node.targets[0], ast.Name) and node.targets[0].id == ALIAS)
        ),
        key=lambda node: (node.lineno, node.col_offset),
    )


def probes(tree: ast.Module, code: str) -> dict[str, ast.Assign]:
    """``Name = <a call naming a hijax class>`` anywhere in the module: each name ->
    its last such assignment."""
    if not may_probe(code):
        return {}
    found, lines = {}, _LINE_END.split(code)
    for assign in assignments(tree):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if isinstance(target, ast.Name) and _probes_hijax(assign.value, lines):
            found[target.id] = assign
    return found


def may_probe(code: str) -> bool:
    """May ``code`` hold a probe? A search of its text, before any parse."""
    return _MAY_PROBE.search(code) is not None


def _probes_hijax(value: ast.expr, lines: list[str]) -> bool:
    """Does ``value`` hold a call, and its text a hijax class's name?"""
    if not any(isinstance(node, ast.Call) for node in ast.walk(value)):
        return False
    return any(word in _text(value, lines) for word in HIJAX_WORDS)


def _text(node: ast.expr, lines: list[str]) -> str:
    """``ast.get_source_segment``, with the lines split once (columns count bytes)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset : node.end_col_offset].decode(errors="replace")
    head = lines[first].encode()[node.col_offset :].decode(errors="replace")
    tail = lines[last].encode()[: node.end_col_offset].decode(errors="replace")
    return "\n".join([head, *lines[first + 1 : last], tail])


def users(infos: list[ClassInfo], name: str) -> list[int]:
    """The indexes of the classes of ``infos`` with a base reached through ``name``."""
    return [index for index, info in enumerate(infos) if any((base or "").split(".")[0] == name for base in info.bases)]


# What a finding says of a class on such a base whose `vjp_bwd` returns cotangents.
PORT = (
    "which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; "
    "rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS"
)


def needs_port(cls, bridge) -> bool:
    return value_rule(cls, bridge) is not None


def value_rule(cls, bridge):
    """The first ``vjp_bwd`` returning cotangents in libcst's class statement ``cls`` (in its
    body, or in any arm of a block of it, at any depth), which jax runs as an accumulator
    rule from 0.8.1 on; None: none. ``bridge``: the tree's statements with ``ast``'s."""
    return next(
        (
            node
            for node, stmt in bridge.within(cls)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
            and stmt.name == "vjp_bwd"
            and returns_values(stmt)
        ),
        None,
    )


def base_bound_at_run(kind: Kind, info: ClassInfo | None, project) -> tuple | None:
    """For a class with hijax rules that is no primitive, ``project.runtime_base``:
    (module, name, line) of the name bound when the code runs that its base is
    reached through; None: none is, or the class is not such a class."""
    if kind.is_primitive or info is None or not defines_rules(info):
        return None
    return project.runtime_base(info)
