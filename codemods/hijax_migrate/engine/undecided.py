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

from ..analysis.bridge import Bridge
from ..analysis.fixture_classes import fixture_classes, fixture_note
from ..analysis.primitives import PrimitiveMap
from ..analysis.probes import PORT, may_probe, needs_port, probes, users
from ..analysis.scopes import Kind
from ..core.model import ERROR, Finding
from . import runtime


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def fixtures(bridge: Bridge) -> dict[cst.ClassDef, str]:
    """Classes defined inside a ``raises`` block, or in a function and used only
    inside its ``raises`` blocks -> where they stand, for the note: ``ast``'s
    reading (``fixture_classes``, triage's too), as the bridge's tree's nodes."""
    found = fixture_classes(bridge.parsed, bridge.text)
    return {bridge.cst_of(cls): where for cls, where in found.items()}


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
    return found + runtime.findings(code, prims, project, path, reported)


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
