"""Deliberate test fixtures, read from ``ast``: the one reading, triage's
notes and the migration's (``engine.undecided``, through the bridge).

A class is one where it is defined inside a ``raises`` block, or in a
function and every use of its name (and of the local functions that use it)
stands in such a block. A use is any place the grammar holds the word as an
identifier (``identifiers.own``): a name, an attribute's, a parameter's, a
keyword's, an import's, a pattern's, a type parameter's.
"""

from __future__ import annotations

import ast

from ..core.line_breaks import lines_of
from ..core.model import Finding
from .identifiers import own
from .names import evaluated_outside, parameters


def fixture_classes(tree: ast.Module, code: str) -> dict[ast.ClassDef, str]:
    """Classes defined in a ``raises`` block, or in a function and used only in
    its ``raises`` blocks -> where they stand, worded as the note says it.
    ``code``: the text ``tree`` was read from."""
    if "aises" not in code:
        return {}
    walker = _Fixtures(code)
    walker.visit(tree)
    return walker.found


def fixture_note(path: str, line: int, qualname: str, where: str) -> Finding:
    """The note on a primitive set aside as a fixture: triage's and the migration's words."""
    return Finding(path, line, f"{qualname}: {where}, a deliberate test fixture: its rules are left as written", "")


def _is_raises(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return (
            func.attr in ("assertRaises", "assertRaisesRegex")
            or func.attr == "raises"
            and isinstance(func.value, ast.Name)
            and func.value.id == "pytest"
        )
    return isinstance(func, ast.Name) and func.id == "raises"


class FixtureBook:
    """What the walk for fixtures keeps: the open ``raises`` blocks' calls, and per
    function the classes and functions it defines outside them, and where
    each use of their names stands: in a ``raises`` block, in one of those
    local classes or functions (which may be used only in such blocks
    themselves), or elsewhere. The walk calls ``enter_*``/``leave_*`` and ``use``."""

    def __init__(self):
        self.found: dict = {}  # class node -> where it stands, for the note
        self.calls: list[str | None] = []  # the open with-statements' raises calls
        # per function: name -> class (None: two of that name), name -> [where each use stands], local functions
        self.frames: list[tuple[dict, dict, set]] = []
        self.scopes: list[tuple[str, str]] = []  # ("class"/"def", name) of the definitions around
        self.starts: list[int] = []  # per frame: the index of its function in ``scopes``
        self.classes: list[str] = []  # the names of the classes around

    def call(self) -> str | None:
        return next((call for call in reversed(self.calls) if call), None)

    def enter_class(self, node, name: str) -> None:
        if self.call():
            self.found.setdefault(node, f"defined inside `with {self.call()}(...)`")
        elif self.frames:  # a second class of that name: its uses cannot be told apart
            defined = self.frames[-1][0]
            defined[name] = None if name in defined else node
        self.classes.append(name)
        self.scopes.append(("class", name))

    def leave_class(self) -> None:
        self.classes.pop()
        self.scopes.pop()

    def holds_none(self, text: str | None) -> bool:
        """A function outside functions and ``raises`` blocks whose text names no
        ``raises``: no class in it is a fixture, and no function around it
        counts the uses in it (most of a test module's methods)."""
        return not self.frames and not self.call() and text is not None and "aises" not in text

    def enter_function(self, name: str) -> None:
        if self.frames and not self.call():
            self.frames[-1][2].add(name)
        self.frames.append(({}, {}, set()))
        self.starts.append(len(self.scopes))
        self.scopes.append(("def", name))

    def leave_function(self) -> None:
        defined, uses, functions = self.frames.pop()
        self.starts.pop()
        self.scopes.pop()
        only = used_only_in_raises({name for name, cls in defined.items() if cls is not None} | functions, uses)
        calls = [where for name in only for where in uses[name] if isinstance(where, str)]
        for name, cls in defined.items():
            if cls is not None and name in only:
                self.found.setdefault(cls, f"used only inside `with {calls[0]}(...)`")

    def use(self, word: str, own: bool = False) -> None:
        """``word`` used where the walk stands; ``own``: a function's name in its own ``def``,
        which binds it and calls nothing (in a ``raises`` block too: no way into it)."""
        if word in self.classes:
            return  # the class naming itself
        call = None if own else self.call()
        for (_, uses, _), start in zip(self.frames, self.starts):
            inner = self.scopes[start + 1] if start + 1 < len(self.scopes) else None
            uses.setdefault(word, []).append(call or inner)


class _Fixtures(FixtureBook, ast.NodeVisitor):
    def __init__(self, code: str):
        super().__init__()
        self.lines = lines_of(code)

    def visit_With(self, node) -> None:
        calls = [item.context_expr for item in node.items if _is_raises(item.context_expr)]
        self.calls.append(_called(calls[0].func) if calls else None)
        self.generic_visit(node)
        self.calls.pop()

    visit_AsyncWith = visit_With

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._outside(node)
        self.enter_class(node, node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.leave_class()

    def visit_FunctionDef(self, node) -> None:
        if self.holds_none("\n".join(self.lines[node.lineno - 1 : node.end_lineno])):
            return
        self._outside(node)
        self.enter_function(node.name)
        self.use(node.name, own=True)  # named in its own frame: a helper no one calls runs no use of a class
        for param in parameters(node.args):
            self.use(param.arg)
        for stmt in node.body:
            self.visit(stmt)
        self.leave_function()

    def _outside(self, node) -> None:
        """What the statement evaluates where it stands (``names.evaluated_outside``), and its type parameters."""
        for part in [*evaluated_outside(node), *getattr(node, "type_params", ())]:
            self.visit(part)

    visit_AsyncFunctionDef = visit_FunctionDef

    def generic_visit(self, node: ast.AST) -> None:
        for word in own(node):
            if word != "*":  # ``from m import *`` names nothing
                self.use(word)
        super().generic_visit(node)


def _called(func: ast.expr) -> str:
    """How the note names a ``raises`` call: its dotted name (``self.assertRaises``), or
    its expression as Python writes it (``self.case().assertRaises``)."""
    parts, root = [], func
    while isinstance(root, ast.Attribute):
        parts.append(root.attr)
        root = root.value
    return ".".join([root.id, *reversed(parts)]) if isinstance(root, ast.Name) else ast.unparse(func)


def used_only_in_raises(names: set[str], uses: dict) -> set[str]:
    """Those of a function's local classes and functions every use of which stands
    in a ``raises`` block or in another of them (the largest such set: a class and
    the helper that builds it may name each other), and that reach such a block
    (a helper never called is no way into one)."""
    only = {name for name in names if uses.get(name)}
    while True:
        kept = {
            name
            for name in only
            if all(isinstance(where, str) or (where is not None and where[1] in only) for where in uses[name])
        }
        if kept == only:
            break
        only = kept
    reached = {name for name in only if any(isinstance(where, str) for where in uses[name])}
    while True:
        more = {
            name
            for name in only - reached
            if any(where[1] in reached for where in uses[name] if not isinstance(where, str))
        }
        if not more:
            return reached
        reached |= more
