"""Bases and rules bound when the code runs, each left as written with a finding.

- A base reached through a name Python binds only when the code runs
  (``importlib.import_module(...)``, ``__import__(...)``, ``BASES[0]``,
  ``ns.Base`` of a ``SimpleNamespace``, a helper probing jax): which class it
  is cannot be known, so the class is no primitive to any rule; the note
  names the assignment, in this file or another.
- A rule placed by ``type(name, bases, {"vjp_bwd": f})``: no class statement,
  so no rule sees it; a value rule under a hijax base is an error (jax runs
  ``vjp_bwd`` as an accumulator rule from 0.8.1 on), any other a note.
"""

from __future__ import annotations

import ast
import os

from ..analysis.ast_summary import binding_line, dotted_name, member_index
from ..analysis.class_body import FUNCTIONS
from ..analysis.line_walk import over_lines, word_lines
from ..analysis.primitives import PrimitiveMap
from ..analysis.probes import PORT, base_bound_at_run, needs_port
from ..analysis.summary import Kind, strongest
from ..core.model import ERROR, NOTE, Finding
from ..rules.bwd_returns_cotangents.factories import verdict
from .triage import may_place_rules

_TODO = "migrate it by hand, or pass --base MODULE.CLASS if the base is a hijax primitive"


def findings(code: str, prims: PrimitiveMap, project, path: str, reported: set) -> list[Finding]:
    """``reported``: classes a note on a probe in this file already names."""
    if project is None:
        return []
    placed = factories(prims, project, path) if may_place_rules(code) else []  # a walk of the tree: only then
    return runtime_bases(code, prims, project, path, reported) + placed


def runtime_bases(code: str, prims: PrimitiveMap, project, path: str, reported: set) -> list[Finding]:
    found = []
    for cls, kind in prims.kinds.items():
        info = prims.infos.get(cls)
        hit = base_bound_at_run(kind, info, project) if cls not in reported else None
        if hit is not None:
            module, name, _ = hit
            stuck = kind is Kind.NONE and needs_port(cls, prims.bridge)  # a rule that would need porting on a primitive
            found.append(
                Finding(
                    path,
                    prims.line(cls),
                    f"{info.qualname}: its base is reached through "
                    f"`{name}` ({_where(project, module, name, info.module, code)}), bound when the code "
                    + (
                        f"runs, and its `vjp_bwd` returns cotangents, {PORT}"
                        if stuck
                        else f"runs: which class it is cannot be decided, and its rules are left as written; {_TODO}"
                    ),
                    "",
                    severity=ERROR if stuck else NOTE,
                )
            )
    return found


def _where(project, module: str, name: str, here: str, code: str) -> str:
    if module == here:
        line = binding_line(code, name)
        return f"line {line}" if line else "this file"
    path, line = project.assignment_line(module, name)
    if path is None:
        return module
    shown = _shown(path, project.roots)
    return f"{shown}:{line}" if line else shown


def _shown(path, roots) -> str:
    """``path`` from the outermost search root holding it, as the run's files are shown."""
    real = os.path.realpath(path)
    for root in sorted(roots, key=lambda root: len(str(root))):
        rel = os.path.relpath(real, os.path.realpath(root))
        if not rel.startswith(".."):
            return rel
    return str(path)


def factories(prims: PrimitiveMap, project, path: str) -> list[Finding]:
    """A finding for each ``type(name, bases, {... "vjp_bwd": f ...})`` under a base that
    is, or may be, a hijax primitive, but for the statements ``Name = type(...)`` HJX001
    decides; read from ``ast`` (the bridge's tree, the calls over lines that name ``type``)."""
    bridge = prims.bridge
    decided = {id(bridge.ast_of(stmt.body[0]).value) for stmt in prims.factories}
    found = []
    calls = [node for node in over_lines(bridge.parsed, word_lines(bridge.text, ("type",))) if _is_factory(node)]
    for call in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):  # in source order
        if id(call) in decided:
            continue
        kind, member = _kind(call.args[1], prims, project), _member(call.args[2], "vjp_bwd")
        said = _said(bridge.parsed, member, kind) if member is not None else _spread(call.args[2], kind)
        if said is not None:
            placed = f"vjp_bwd = {_text(bridge, member)}" if member is not None else "members"
            line = prims.file_line(call.lineno)
            found.append(Finding(path, line, f"`type(...)` places `{placed}`: {said[0]}", "", severity=said[1]))
    return found


def _member(members: ast.Dict, key: str) -> ast.expr | None:
    """The value of the dict display's first entry ``key`` (``ast_summary.member_index``)."""
    index = member_index(members, key)
    return members.values[index] if index is not None else None


def _text(bridge, expr: ast.expr) -> str:
    return (ast.get_source_segment(bridge.text, expr) if bridge.as_written else None) or ast.unparse(expr)


def _said(tree: ast.Module, rule: ast.expr, kind: Kind) -> tuple[str, str] | None:
    """``verdict`` of the module's own ``def`` the rule names (None: a function not read)."""
    name = rule.id if isinstance(rule, ast.Name) else None
    func = next((s for s in tree.body if isinstance(s, FUNCTIONS) and s.name == name), None)
    return verdict(func, kind)


def _spread(members: ast.Dict, kind: Kind) -> tuple[str, str] | None:
    """``{**members}`` under a hijax base: a ``vjp_bwd`` may be among them, unseen."""
    if kind is Kind.NONE or None not in members.keys:
        return None
    return (
        "they are not all written out (`**`): if one is a `vjp_bwd` returning cotangents, make its key "
        '`"vjp_bwd_retval"` by hand (jax 0.8.1 on)'
    ), NOTE


def _is_factory(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 3
        and not node.keywords
        and isinstance(node.args[2], ast.Dict)
    )


def _kind(bases: ast.expr, prims: PrimitiveMap, project) -> Kind:
    """What the bases make the class: EXTERNAL where they cannot be read."""
    if not isinstance(bases, ast.Tuple) or prims.module_scope is None:
        return Kind.EXTERNAL
    names = [dotted_name(element) for element in bases.elts]
    if None in names:
        return Kind.EXTERNAL
    return strongest(project.kind_of_name(prims.module_scope, name) for name in names)
