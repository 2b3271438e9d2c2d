"""Classes the tool leaves alone on purpose, each with a note.

- Deliberate test fixtures: a class defined inside ``with
  self.assertRaises(...)``, ``assertRaisesRegex(...)`` or ``pytest.raises(...)``
  is wrong on purpose; "fixing" it breaks the test.
- Bases probed at import time (``HiPrim = _resolve(...)``, ``getattr(hijax,
  "HiPrim", None) or hijax.VJPHiPrimitive``): which class they are is only
  known when the code runs (``analysis.probes`` finds them, as triage does;
  each is mapped here onto the tree's assignment).
"""

from __future__ import annotations

import libcst as cst

from ..analysis.ast_summary import parse_ast
from ..analysis.bridge import Bridge
from ..analysis.deflines import DefLines
from ..analysis.fixture_classes import FixtureBook, Undecidable, fixture_classes, fixture_note
from ..analysis.nodes import is_attribute, is_name
from ..analysis.primitives import PrimitiveMap
from ..analysis.probes import PORT, may_probe, needs_port, probes, users
from ..analysis.scopes import Kind
from ..core.model import ERROR, Finding
from . import runtime


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def fixtures(tree: cst.Module, code: str, defs: DefLines | None = None) -> dict[cst.ClassDef, str]:
    """Classes defined inside a ``raises`` block, or in a function and used only
    inside its ``raises`` blocks -> where they stand, for the note. ``defs``:
    the tree's ``DefLines``, which name the class statements ``ast``'s walk
    (held to this one by a test) finds; without them, or where ``ast`` cannot
    decide, this walk of every node (0.3 s of a big module) decides."""
    if "aises" not in code:  # assertRaises, pytest.raises: nothing to find
        return {}
    found = _by_ast(code)
    if found == {}:
        return {}
    if found is not None and defs is not None:
        nodes = [defs.node_of(cls) for cls in found]
        if None not in nodes:
            return dict(zip(nodes, found.values()))
    return walked_fixtures(tree, defs.text if defs is not None else None)


def walked_fixtures(tree: cst.Module, text=None) -> dict[cst.ClassDef, str]:
    """``fixtures`` by a walk of the tree; ``text``: a function statement's text,
    or None (``DefLines.text``), which lets the walk pass over functions naming no ``raises``."""
    visitor = _Fixtures(text or (lambda node: None))
    tree.visit(visitor)
    return visitor.found


def _by_ast(code: str) -> dict | None:
    """The fixtures ``ast``'s walk finds, in the order this walk finds them (None: it cannot tell)."""
    try:
        return fixture_classes(parse_ast(code), code)
    except (Undecidable, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _is_raises(node: cst.BaseExpression) -> bool:
    """``self.assertRaises[Regex](...)``, ``pytest.raises(...)``, ``raises(...)``."""
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    return (
        is_attribute(func, "assertRaises")
        or is_attribute(func, "assertRaisesRegex")
        or is_name(func, "raises")
        or is_attribute(func, "raises")
        and is_name(func.value, "pytest")
    )


class _Fixtures(FixtureBook, cst.CSTVisitor):
    """One walk of the libcst tree, kept by ``FixtureBook`` (as triage's walk of ``ast``)."""

    def __init__(self, text):
        super().__init__()
        self.text, self.passed = text, set()  # functions not walked (``holds_none``)

    def visit_With(self, node: cst.With) -> None:
        calls = [item.item for item in node.items if _is_raises(item.item)]
        self.calls.append(_code(calls[0].func) if calls else None)

    def leave_With(self, node: cst.With) -> None:
        self.calls.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.enter_class(node, node.name.value)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.leave_class()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool | None:
        if self.holds_none(self.text(node)):
            self.passed.add(node)
            return False
        self.enter_function(node.name.value)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node not in self.passed:
            self.leave_function()

    def visit_Name(self, node: cst.Name) -> None:
        self.use(node.value)


def set_aside(prims: PrimitiveMap, fixture: dict[cst.ClassDef, str]) -> dict[cst.ClassDef, str]:
    """Fixtures count as no primitive: no rule touches them. Returns the primitives set aside."""
    aside = {cls: call for cls, call in fixture.items() if prims.kinds.get(cls, Kind.NONE) is not Kind.NONE}
    for cls in fixture:
        prims.kinds[cls] = Kind.NONE
    return aside


def _probes(bridge: Bridge, code: str) -> dict[str, cst.Assign]:
    """``probes``' assignments, as nodes of the bridge's tree."""
    if not may_probe(code):
        return {}
    return {name: bridge.cst_of(stmt) for name, stmt in probes(bridge.parsed, bridge.text).items()}


def notes(
    tree: cst.Module, code: str, prims: PrimitiveMap, aside: dict[cst.ClassDef, str], path: str, project=None
) -> list[Finding]:
    """A note for each fixture set aside and each probed base some class uses (an
    error where such a class is no primitive to the tool, yet carries a rule that
    would need porting if it were one); the findings of ``runtime`` on bases and
    rules bound when the code runs."""
    found = [fixture_note(path, prims.line(cls), prims.qualnames[cls], where) for cls, where in aside.items()]
    classes, reported = list(prims.kinds), set()
    for name, assign in _probes(prims.bridge, code).items():
        using = [classes[index] for index in users([prims.infos[cls] for cls in classes], name)]
        reported.update(using)
        stuck = [cls for cls in using if prims.kinds[cls] is Kind.NONE and needs_port(cls, prims.bridge)]
        if stuck:
            found.append(Finding(path, prims.line(assign), _stuck(assign, prims, stuck), "", severity=ERROR))
        if using and len(stuck) < len(using):
            found.append(
                Finding(
                    path,
                    prims.line(assign),
                    f"`{_code(assign).strip()}` picks the hijax base "
                    f"when the code runs, and is left as written; "
                    f"{_verdict(prims, [cls for cls in using if cls not in stuck])}",
                    "",
                )
            )
    return found + runtime.findings(tree, code, prims, project, path, reported)


def _stuck(assign: cst.Assign, prims: PrimitiveMap, stuck: list[cst.ClassDef]) -> str:
    names = ", ".join(prims.qualnames[cls] for cls in stuck)
    return (
        f"`{_code(assign).strip()}` picks the hijax base when the code runs: the `vjp_bwd` of {names} "
        f"(line {', '.join(str(prims.line(cls)) for cls in stuck)}) returns cotangents, {PORT}"
    )


def _verdict(prims: PrimitiveMap, users: list[cst.ClassDef]) -> str:
    names = ", ".join(prims.qualnames[cls] for cls in users)
    if all(prims.kinds[cls] is Kind.NONE for cls in users):
        return f"{names} cannot be decided: migrate by hand, or pass --base MODULE.CLASS"
    return f"{names} migrated as subclasses of its fallback: check them under each jax they run on"
