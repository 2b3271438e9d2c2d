"""Deliberate test fixtures, read from ``ast``: what ``engine.undecided``
finds with libcst, so that triage can make its notes without libcst (a test
module full of ``assertRaises`` fixtures, jax's own hijax_test.py among them).

The walk is ``undecided._Fixtures``' own, node for node: libcst holds a
``Name`` wherever a word names something (an attribute's, a parameter's, a
keyword's, an import's), so each of those counts as a use here too. A test
compares both on every golden input; where this one cannot tell (a ``raises``
call written other than as a dotted name), it says so and libcst decides.
"""

from __future__ import annotations

import ast
import re

from ..core.model import Finding

_DOTTED = re.compile(r"[A-Za-z_][\w.]*\Z")


class Undecidable(Exception):
    """The libcst walk might word a note otherwise: let it decide."""


def fixture_classes(tree: ast.Module, code: str) -> dict[ast.ClassDef, str]:
    """Classes defined in a ``raises`` block, or in a function and used only in
    its ``raises`` blocks -> where they stand, worded as the note says it."""
    if "aises" not in code:
        return {}
    if "\r" in code.replace("\r\n", ""):
        raise Undecidable(0)  # a lone carriage return ends a line for ast, not for the lines read here
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
    """What a walk for fixtures keeps, whichever tree it walks (``ast`` here,
    libcst in ``engine.undecided``): the open ``raises`` blocks' calls, and per
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

    def use(self, word: str) -> None:
        if word in self.classes:
            return  # the class naming itself
        call = self.call()
        for (_, uses, _), start in zip(self.frames, self.starts):
            inner = self.scopes[start + 1] if start + 1 < len(self.scopes) else None
            uses.setdefault(word, []).append(call or inner)


class _Fixtures(FixtureBook, ast.NodeVisitor):
    def __init__(self, code: str):
        super().__init__()
        self.code, self.lines = code, code.split("\n")

    def _call_text(self, call: ast.Call) -> str:
        """The called name as written (libcst's text of the node): on one line, a
        dotted name, not in brackets of its own (libcst's text would hold them)."""
        func = call.func
        line = self.lines[func.lineno - 1].encode() if func.lineno == func.end_lineno else b""
        text = line[func.col_offset : func.end_col_offset].decode(errors="replace")
        if not _DOTTED.match(text) or line[func.end_col_offset :].lstrip().startswith(b")"):
            raise Undecidable(call.lineno)
        return text

    def visit_With(self, node) -> None:
        calls = [item.context_expr for item in node.items if _is_raises(item.context_expr)]
        self.calls.append(self._call_text(calls[0]) if calls else None)
        self.generic_visit(node)
        self.calls.pop()

    visit_AsyncWith = visit_With

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.enter_class(node, node.name)
        self.generic_visit(node)
        self.leave_class()

    def visit_FunctionDef(self, node) -> None:
        if self.holds_none("\n".join(self.lines[node.lineno - 1 : node.end_lineno])):
            return
        self.enter_function(node.name)
        self.use(node.name)  # libcst visits the def's name inside its own frame
        self.generic_visit(node)
        self.leave_function()

    visit_AsyncFunctionDef = visit_FunctionDef

    # Each word libcst holds as a ``Name``:
    def visit_Name(self, node: ast.Name) -> None:
        self.use(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)
        self.use(node.attr)

    def visit_arg(self, node: ast.arg) -> None:
        self.use(node.arg)
        self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg is not None:
            self.use(node.arg)
        self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        for word in [*node.name.split("."), *([node.asname] if node.asname else [])]:
            if word != "*":
                self.use(word)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for word in (node.module or "").split(".") if node.module else ():
            self.use(word)
        self.generic_visit(node)

    def visit_Global(self, node) -> None:
        for word in node.names:
            self.use(word)

    visit_Nonlocal = visit_Global

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.use(node.name)
        for stmt in node.body:
            self.visit(stmt)

    def visit_MatchAs(self, node) -> None:
        raise Undecidable(node.lineno)  # patterns: libcst's names there are not worth a twin

    visit_MatchStar = visit_MatchMapping = visit_MatchClass = visit_MatchAs


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
