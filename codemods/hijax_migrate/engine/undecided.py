"""Classes the tool leaves alone on purpose, each with a note.

- Deliberate test fixtures: a class defined inside ``with
  self.assertRaises(...)``, ``assertRaisesRegex(...)`` or ``pytest.raises(...)``
  is wrong on purpose; "fixing" it breaks the test.
- Bases probed at import time (``HiPrim = _resolve(...)``, ``getattr(hijax,
  "HiPrim", None) or hijax.VJPHiPrimitive``): which class they are is only
  known when the code runs.
"""

from __future__ import annotations

import re

import libcst as cst

from ..analysis.ast_summary import parse_ast
from ..analysis.deflines import DefLines
from ..analysis.fixture_classes import FixtureBook, Undecidable, fixture_classes
from ..analysis.nodes import findall, is_attribute, is_name, sole_target
from ..analysis.primitives import PrimitiveMap
from ..analysis.summary import Kind, dotted_name
from ..core.model import Finding
from . import runtime

HIJAX_WORDS = ("VJPHiPrimitive", "HiPrim", "NewstyleHiPrimitive")
# An assignment from a call whose arguments name a hijax class, or from getattr:
# the walk for probes runs only where this text is.
_MAY_PROBE = re.compile(r"=\s*(?:getattr\s*\(|[\w.]+\((?:[^()]|\([^()]*\))*?(?:HiPrim|VJPHiPrimitive|NewstyleHiPrimitive))")


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
    return is_attribute(func, "assertRaises") or is_attribute(func, "assertRaisesRegex") or is_name(func, "raises") \
        or is_attribute(func, "raises") and is_name(func.value, "pytest")


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


def _probes(tree: cst.Module) -> dict[str, cst.Assign]:
    """``Name = <a call naming a hijax class>`` anywhere in the module."""
    found = {}
    for assign in findall(tree, cst.Assign, lambda assign: is_name(sole_target(assign))):
        value = _code(assign.value)
        if findall(assign.value, cst.Call) and any(word in value for word in HIJAX_WORDS):
            found[assign.targets[0].target.value] = assign
    return found


def notes(tree: cst.Module, code: str, prims: PrimitiveMap, aside: dict[cst.ClassDef, str],
          path: str, project=None) -> list[Finding]:
    """A note for each fixture set aside and each probed base some class uses;
    the findings of ``runtime`` on bases and rules bound when the code runs."""
    found = [Finding(path, prims.line(cls), f"{prims.qualnames[cls]}: {where}, "
                     "a deliberate test fixture: its rules are left as written", "")
             for cls, where in aside.items()]
    probes, reported = _probes(tree) if _MAY_PROBE.search(code) else {}, set()
    for name, assign in probes.items():
        users = [cls for cls in prims.kinds
                 if any((dotted_name(arg.value) or "").split(".")[0] == name for arg in cls.bases)]
        reported.update(users)
        if users:
            found.append(Finding(path, prims.line(assign), f"`{_code(assign).strip()}` picks the hijax base "
                                 f"when the code runs, and is left as written; {_verdict(prims, users)}", ""))
    return found + runtime.findings(tree, code, prims, project, path, reported)


def _verdict(prims: PrimitiveMap, users: list[cst.ClassDef]) -> str:
    names = ", ".join(prims.qualnames[cls] for cls in users)
    if all(prims.kinds[cls] is Kind.NONE for cls in users):
        return f"{names} cannot be decided: migrate by hand, or pass --base MODULE.CLASS"
    return f"{names} migrated as subclasses of its fallback: check them under each jax they run on"
