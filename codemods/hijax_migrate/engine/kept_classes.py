"""Classes a suppression leaves alone keep every byte, and still import.

The file is migrated without them, but the module-wide rewrites (the base
renamed in the import and at every use) reach into every class. So each
class left alone is put back as it was found, and a name it reads that the
rest of the file no longer binds gets its binding back: a base the target
renamed (``VJPHiPrimitive``, now ``HiPrim``) becomes an alias of the new
name on the import that now binds it (``from jax.experimental.hijax import
HiPrim, HiPrim as VJPHiPrimitive``): the migrated classes say ``HiPrim``,
the one left alone keeps its words, and both name what the target has.
A name that cannot be bound again is the caller's refusal (``Unbindable``).
"""

from __future__ import annotations

import ast
from collections import Counter

import libcst as cst

from ..analysis.chains import HIJAX_MODULES
from ..rules.hiprim_base import RULE as HIPRIM
from ..rules.newstyle_base import RULE as NEWSTYLE
from .checks import _unbound

# A base renamed module-wide -> (its new name, the rule renaming it).
RENAMED_BASES = {"VJPHiPrimitive": ("HiPrim", HIPRIM), "NewstyleHiPrimitive": ("VJPHiPrimitive", NEWSTYLE)}


class Unbindable(Exception):
    """A class left alone reads ``name``, which the migrated file no longer binds."""

    def __init__(self, name: str, line: int):
        super().__init__(name)
        self.name, self.line = name, line


def kept(code: str, new_code: str, path: str, left: set[str]) -> tuple[str, list[str]]:
    """``new_code`` with the classes of ``left`` (qualified names) as ``code`` has
    them, and the names bound again for them (raises ``Unbindable``)."""
    if not left or new_code == code:
        return new_code, []
    found = _classes(cst.parse_module(code), left)
    restored = cst.parse_module(new_code).visit(_PutBack(found, left))
    rebound = []
    for name, line in _lost(code, restored.code, path):
        restored = _rebind(restored, name, line)
        rebound.append(name)
    return restored.code, rebound


class _Qualnames(cst.CSTTransformer):
    """Tracks the qualified name of each class statement met, as ``__qualname__`` does."""

    def __init__(self):
        self.prefix: list[str] = []
        self.seen: Counter = Counter()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.prefix.append(node.name.value + ".")

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.prefix.append(node.name.value + ".<locals>.")

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.prefix.pop()
        return updated

    def _key(self, node: cst.ClassDef) -> tuple[str, int]:
        """(qualname, how many classes of that name came before): two ``Op`` under ``if``/``else``."""
        self.prefix.pop()
        qualname = "".join(self.prefix) + node.name.value
        self.seen[qualname] += 1
        return qualname, self.seen[qualname]


class _Collect(_Qualnames):
    def __init__(self, left: set[str]):
        super().__init__()
        self.left, self.found = left, {}

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        key = self._key(original)
        if key[0] in self.left:
            self.found[key] = original
        return updated


class _PutBack(_Qualnames):
    def __init__(self, found: dict, left: set[str]):
        super().__init__()
        self.found = found

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        return self.found.get(self._key(original), updated)


def _classes(module: cst.Module, left: set[str]) -> dict:
    collect = _Collect(left)
    module.visit(collect)
    return collect.found


def _lost(code: str, new_code: str, path: str) -> list[tuple[str, int]]:
    """Names ``new_code`` reads and no longer binds, which ``code`` bound (as ``checks`` counts them)."""
    after = _unbound(new_code, path)
    before = Counter(name for name, _ in _unbound(code, path)) if after else Counter()
    lost = []
    for name, line in after:
        before[name] -= 1
        if before[name] < 0 and name not in dict(lost):
            lost.append((name, line))
    return lost


def _rebind(module: cst.Module, name: str, line: int) -> cst.Module:
    """``name``, a base the target renamed, bound again as an alias of the new name
    on the module-level hijax import that binds it."""
    new = RENAMED_BASES.get(name, (None,))[0]
    while new is not None and not _binding(module, new):
        new = RENAMED_BASES.get(new, (None,))[0]
    if new is None:
        raise Unbindable(name, line)
    statement, index = _binding(module, new)
    names = list(statement.body[0].names)
    before = names[index]
    alias = cst.ImportAlias(cst.Name(new), cst.AsName(cst.Name(name)), comma=before.comma)
    if _reads(module.code, new):  # the migrated code names it: both names
        names[index : index + 1] = [
            before.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            alias,
        ]
    else:  # only the classes left alone import it: the old name alone, bound to the new
        names[index] = alias
    body = [statement.body[0].with_changes(names=names), *statement.body[1:]]
    return module.with_deep_changes(statement, body=body)


def _reads(code: str, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(ast.parse(code)))


def _binding(module: cst.Module, name: str) -> tuple[cst.SimpleStatementLine, int] | None:
    """The ``from <hijax> import name`` (no alias) that binds ``name`` in the module's
    own scope (under ``try`` or ``if`` too), and the alias's place in it."""
    for statement in _module_scope(module):
        first = statement.body[0]
        if not isinstance(first, cst.ImportFrom) or first.relative or isinstance(first.names, cst.ImportStar):
            continue
        if first.module is None or cst.Module([]).code_for_node(first.module) not in HIJAX_MODULES:
            continue
        for index, alias in enumerate(first.names):
            if isinstance(alias.name, cst.Name) and alias.name.value == name and alias.asname is None:
                return statement, index
    return None


def _module_scope(node: cst.CSTNode):
    """The simple statements of the module's own scope, in order: not those of a function or class."""
    for child in node.children:
        if isinstance(child, cst.SimpleStatementLine):
            yield child
        elif not isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.BaseExpression)):
            yield from _module_scope(child)
