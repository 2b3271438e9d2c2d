"""``vjp_bwd`` bound by a statement of the class body other than ``vjp_bwd = f``:
the value Python binds it to, where the statement says it.

From the language reference (assignment statements, target lists, assignment
expressions, the ``for`` statement), each binds ``vjp_bwd`` to one expression
of the statement, evaluated once:

- a chained assignment ``vjp_bwd = _alias = f``: every target gets the value;
- a target list ``a, vjp_bwd = x, f`` / ``[vjp_bwd] = [f]`` / ``vjp_bwd, *r = (f,)``
  of a display without ``*``: the item at its position (counted from the end
  after a starred target), the display long enough for the targets;
- ``(vjp_bwd := f)``, the whole statement: the value;
- ``for vjp_bwd in (f,):`` over a display of one item: the loop runs once, with
  that item (a ``break``, ``continue`` or ``else`` binds nothing more);
- ``from m import f as vjp_bwd``: the object ``m`` binds to ``f`` (read in ``m``'s
  file by the planner); ``from m import vjp_bwd`` and ``import m as vjp_bwd`` are
  refused (a rename would change what is imported; a module is no rule).

The statement must be the body's own (not inside a block), and the name
``vjp_bwd`` must stand nowhere else in the body (no other binding, no read):
renaming that one target then binds the same value under the target's name,
as ``vjp_bwd = f`` renamed does. Anything else is not proven (``Refused``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from ...analysis.cst_blocks import own_statements
from ...analysis.namespace import CHAINED, FOR, IMPORT, UNPACKING, WALRUS, body_bindings
from ...analysis.nodes import findall, is_name

RULE = "vjp_bwd"
FORMS = frozenset({CHAINED, UNPACKING, WALRUS, FOR, IMPORT})  # the forms (``analysis.namespace``) read here
DESCRIBED = {CHAINED: "a chained assignment", UNPACKING: "an unpacking assignment", IMPORT: "an import"}
DESCRIBED |= {WALRUS: "an assignment expression", FOR: "a for target", None: "a statement"}


@dataclass(frozen=True)
class Bound:
    target: cst.Name  # the name to rename
    value: cst.BaseExpression  # what Python binds it to
    form: str


@dataclass(frozen=True)
class Refused:
    node: cst.CSTNode
    why: str
    form: str | None = None


def bound_by_target(cls: cst.ClassDef) -> Bound | Refused | None:
    """The body's binding of ``vjp_bwd`` in one of ``FORMS``, its value proven; None: no such binding."""
    if not findall(cls.body, cst.Name, lambda n: n.value == RULE):
        return None
    defs = {id(f.name) for f in findall(cls.body, cst.FunctionDef, lambda f: f.name.value == RULE)}
    if all(id(n) in defs for n in findall(cls.body, cst.Name, lambda n: n.value == RULE)):
        return None  # only ``def vjp_bwd`` statements: none of these forms (read whatever the Python)
    for stmt in own_statements(cls):  # whatever the layout: ``a = 1; vjp_bwd = f``, ``class C: vjp_bwd = f``
        found = _in_statement(stmt)
        if found is None:
            continue
        if isinstance(found, Bound) and len(findall(cls.body, cst.Name, lambda n: n.value == RULE)) != 1:
            return Refused(found.target, "the class body names `vjp_bwd` again (bound twice, or read)", found.form)
        return found
    # a binding in these forms that the statements above do not read (a walrus inside an expression,
    # a nested target): the forms are this rule's to decide (``Rule.binds``), so it is refused here
    return Refused(cls, "a binding of `vjp_bwd` whose value is not read") if _binds_in_forms(cls) else None


def _binds_in_forms(cls: cst.ClassDef) -> bool:
    """Does the body bind ``vjp_bwd`` in one of ``FORMS`` (as ``analysis.namespace`` enumerates them)?"""
    try:
        node = ast.parse(cst.Module([]).code_for_node(cls)).body[0]
    except SyntaxError:  # syntax of a later Python than the tool's: not read, so not proven
        return True
    return any(b.name == RULE and b.key in FORMS for b in body_bindings(node))


def _in_statement(stmt: cst.CSTNode) -> Bound | Refused | None:
    """A binding in one of the body's own statements (a small one, or a ``for``)."""
    if isinstance(stmt, cst.BaseSmallStatement):
        return _in_small(stmt)
    if isinstance(stmt, cst.For):
        if not is_name(stmt.target, RULE):
            return None
        value = _only_item(stmt.iter)
        if value is None or stmt.asynchronous is not None:
            return Refused(stmt.target, "a `for` not over a display of one item binds it 0 or many times", FOR)
        return Bound(stmt.target, value, FOR)
    return None


def _in_small(small: cst.BaseSmallStatement) -> Bound | Refused | None:
    if isinstance(small, (cst.Import, cst.ImportFrom)):
        return _imported(small)
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.NamedExpr) and is_name(small.value.target, RULE):
        return Bound(small.value.target, small.value.value, WALRUS)
    if not isinstance(small, cst.Assign):
        return None
    if len(small.targets) > 1:
        name = next((t.target for t in small.targets if is_name(t.target, RULE)), None)
        return Bound(name, small.value, CHAINED) if name is not None else None
    target = small.targets[0].target
    if isinstance(target, (cst.Tuple, cst.List)) and findall(target, cst.Name, lambda n: n.value == RULE):
        return _unpacked(target, small.value)
    return None


def _imported(small: cst.Import | cst.ImportFrom) -> Bound | Refused | None:
    """``from m import f as vjp_bwd``: its ``as`` name, bound to ``f`` (what ``value`` names)."""
    names = small.names if not isinstance(small.names, cst.ImportStar) else ()
    for alias in names:
        if alias.asname is not None and is_name(alias.asname.name, RULE):
            if isinstance(small, cst.Import):
                return Refused(alias.asname.name, "it binds a module, which is no rule", IMPORT)
            return Bound(alias.asname.name, alias.name, IMPORT)
        if alias.asname is None and is_name(alias.name, RULE):
            return Refused(alias.name, "imported under its own name: a rename would change what is imported", IMPORT)
    return None


def _unpacked(target: cst.Tuple | cst.List, value: cst.BaseExpression) -> Bound | Refused:
    names = [e.value for e in target.elements]
    at = next((i for i, e in enumerate(target.elements) if is_name(e.value, RULE)), None)
    stars = [i for i, e in enumerate(target.elements) if isinstance(e, cst.StarredElement)]
    items = _display(value)
    if at is None or isinstance(target.elements[at], cst.StarredElement) or items is None or len(stars) > 1:
        why = "its value is no display, or its `vjp_bwd` is nested or starred"
        return Refused(target, why, UNPACKING)
    if stars and len(items) < len(names) - 1 or not stars and len(items) != len(names):
        return Refused(target, "its display does not match its targets (it raises)", UNPACKING)
    index = at if not stars or at < stars[0] else len(items) - (len(names) - at)
    return Bound(target.elements[at].value, items[index], UNPACKING)


def _display(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The items of a tuple or list display without ``*``."""
    if not isinstance(value, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return [e.value for e in value.elements]


def _only_item(value: cst.BaseExpression) -> cst.BaseExpression | None:
    items = _display(value)
    return items[0] if items is not None and len(items) == 1 else None


def bound_once(code: str, name: str) -> bool:
    """Does the module bind ``name`` once, by a ``def`` (no other binding anywhere: the value a
    class body reads of it is that function)?"""
    found = module_bindings(code, name)
    return found is not None and len(found) == 1 and isinstance(found[0], (ast.FunctionDef, ast.AsyncFunctionDef))


def module_bindings(code: str, name: str) -> list[ast.AST] | None:
    """Every node of the module that binds ``name``, in any scope (a ``def`` or class statement,
    a target, an import, a ``global``/``nonlocal``); None: the module does not parse here."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            found.append(node)
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            found.append(node)
        elif isinstance(node, ast.alias) and (node.asname or node.name) == name:
            found.append(node)
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            found.append(node)
    return found
