"""libcst's scopes of one function, without the scope analysis of its module.

A backward rule's accumulator analysis (``accum_uses``, ``helpers``) asks of
the function's own nodes only: which scope a name stands in, what the
function's scope binds and who reads it. libcst's ``ScopeProvider`` over a
module of the function alone (``unsafe_skip_copy``: the same node objects)
gives the whole module's answers there, in milliseconds instead of a second
(jax's ad_checkpoint.py), except where libcst's visit of the function reads
what lies outside it. Those forms go to the whole module's scopes, resolved
once a tree:

- ``global`` or ``nonlocal``, and type parameters, anywhere in the function;
- in its body, a call that may be ``typing.NewType``, ``TypeVar`` or ``cast``
  (libcst visits its arguments as type hints, or not at all), and a subscript
  holding a string of a name some import binds (``Optional["x"]``: the string
  read as an annotation, or not, by what ``Optional`` is);
- in its body, an attribute chain whose dotted name an import binds
  (``import a.b``: libcst reads ``a.b`` as one access of that import);
- no name model (a text ``ast`` cannot read).

Which function a plain call reaches (``module_function``) is answered from
the function's own scopes and the name model's module-level bindings, where
the function stands at module level or in a class there and the model is sure
of the name (``global``, a pattern, a comprehension's binding: not sure).
``tests/test_function_scopes.py`` holds both to the whole module's answers.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import ClassScope, MetadataWrapper, ScopeProvider

from .names import NameModel
from .nodes import findall
from .qualified import Qualifier

_TYPE_CALLS = frozenset({"NewType", "TypeVar", "cast"})
_OUTSIDE = (cst.Global, cst.Nonlocal, cst.TypeParameters)


class FunctionScopes:
    """Scope answers a function at a time (``of``), the whole module's where they may differ."""

    def __init__(self, wrapper: MetadataWrapper, model: NameModel | None):
        self.wrapper, self.model = wrapper, model
        self._alone: dict[cst.FunctionDef, Mapping | None] = {}
        self._whole: Mapping | None = None
        self.fallbacks = 0  # how many functions the whole module's scopes answered

    def of(self, func: cst.FunctionDef) -> Mapping:
        """node -> Scope, true of ``func``'s nodes as the whole module's analysis answers."""
        if func not in self._alone:
            self._alone[func] = scopes_alone(func) if self.alone_agrees(func) else None
            self.fallbacks += self._alone[func] is None
        found = self._alone[func]
        return found if found is not None else self.whole()

    def whole(self) -> Mapping:
        if self._whole is None:
            self._whole = self.wrapper.resolve(ScopeProvider)
        return self._whole

    def alone_agrees(self, func: cst.FunctionDef) -> bool:
        """Does libcst's visit of ``func`` read nothing outside it?"""
        model = self.model
        if model is None or findall(func, _OUTSIDE):
            return False
        # Only the body: decorators, defaults and annotations are read in the scope around the
        # function, by both analyses, and nothing there reads or binds in the function's own.
        body = func.body
        qualifier = Qualifier(model, None)
        if findall(body, cst.Call, lambda call: qualifier.may_end_in(call, _TYPE_CALLS)):
            return False
        if findall(
            body,
            cst.Subscript,
            lambda sub: (
                isinstance(sub.value, cst.Name)
                and _imported(model, sub.value.value)
                and findall(sub, (cst.SimpleString, cst.ConcatenatedString))
            ),
        ):
            return False  # ``Optional["x"]``: a string read as an annotation, or not
        dotted = {name for name in model.bindings if "." in name}
        return not (dotted and findall(body, cst.Attribute, lambda attr: get_full_name_for_node(attr) in dotted))

    def module_function(self, call: cst.Call, caller: cst.FunctionDef, name: str) -> cst.FunctionDef | str:
        """What ``name(...)`` at ``call`` in ``caller`` reaches: "local" (``name`` bound in a function
        scope around the call, class scopes skipped), the def directly in the module's body that is
        the one module-level binding of ``name``, or "none" (no such def)."""
        module = self.wrapper.module
        if self.of(caller) is not self._whole and _at_module_level(caller, module):
            found = _model_function(self.of(caller), self.model, module, call, name)
            if found is not None:
                return found
        return whole_module_function(self.whole(), module, call, name)


def scopes_alone(func: cst.FunctionDef) -> Mapping:
    """libcst's scopes of a module holding ``func`` alone, its nodes shared."""
    return MetadataWrapper(cst.Module(body=[func]), unsafe_skip_copy=True).resolve(ScopeProvider)


def whole_module_function(scopes: Mapping, module: cst.Module, call: cst.Call, name: str) -> cst.FunctionDef | str:
    """``module_function`` from the whole module's scopes."""
    if _bound_around(scopes, call, name):
        return "local"
    bindings = list(scopes[call].globals.assignments[name])
    node = bindings[0].node if len(bindings) == 1 else None
    return node if isinstance(node, cst.FunctionDef) and node in module.body else "none"


def _model_function(
    scopes: Mapping, model: NameModel, module: cst.Module, call: cst.Call, name: str
) -> cst.FunctionDef | str | None:
    """``module_function`` from the function's own scopes and the model (None: not sure)."""
    if _bound_around(scopes, call, name):
        return "local"
    found = model.bindings.get(name, [])
    if name in model.declared or any(
        b.scope.kind in ("comprehension", "annotation") or type(b.node).__name__.startswith("Match") for b in found
    ):
        return None  # a walrus in a comprehension, a pattern, ``global``: libcst's scopes decide
    at_module = [b for b in found if b.scope.kind == "module"]
    if len(at_module) != 1 or not isinstance(at_module[0].node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return "none"
    defs = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    return defs[0] if len(defs) == 1 else "none"  # none: a def inside a block (``if``, ``try``)


def _bound_around(scopes: Mapping, call: cst.Call, name: str) -> bool:
    scope = scopes[call]
    while scope is not scope.globals:
        if not isinstance(scope, ClassScope) and scope.assignments[name]:
            return True
        scope = scope.parent
    return False


def _at_module_level(func: cst.FunctionDef, module: cst.Module) -> bool:
    """``func`` in the module's body, or in the body of a class there: no function scope around it."""
    return func in module.body or any(isinstance(stmt, cst.ClassDef) and func in stmt.body.body for stmt in module.body)


def _imported(model: NameModel, name: str) -> bool:
    return any(isinstance(b.node, ast.alias) for b in model.bindings.get(name, ()))
