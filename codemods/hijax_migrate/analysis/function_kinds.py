"""Whether a call of a function runs its body, from ``ast``.

The data model's callable types: a plain function's call runs its body and
returns what a ``return`` gives. A generator function (``yield`` or ``yield
from`` in its own scope), a coroutine function (``async def``) and an
asynchronous generator function (both) return a generator or a coroutine
instead, running none of the body. A ``lambda`` is a generator function too
where its expression yields.

A coroutine is none of what jax reads of a rule (None, a dict, a tuple, values
to unpack). A generator can still be unpacked (``out, res = prim.vjp_fwd(...)``
runs it), so only a rule jax reads whole fails as one: ``vjp_bwd`` (None or a
dict of logs; its value form, a tuple), which then writes no accumulator.
"""

from __future__ import annotations

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_YIELDS = (ast.Yield, ast.YieldFrom)
_KEEPS_KIND = frozenset({"staticmethod", "classmethod"})  # decorators that bind the function itself
GENERATOR_LAMBDA = "a generator function (its lambda yields)"
# Said by every refusal of such a rule: no rename makes it work, so none is offered (``engine.unsafe``).
RUNS_NONE = "a call of it runs none of its body"


def not_run(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> str | None:
    """Why a call of ``func`` runs none of its body (what it is), or None: a plain function, or
    one a decorator replaces (``@collect`` may run the generator it is given: not known)."""
    if any(not (isinstance(d, ast.Name) and d.id in _KEEPS_KIND) for d in getattr(func, "decorator_list", ())):
        return None
    if isinstance(func, ast.AsyncFunctionDef):
        return "a coroutine function (`async def`)"
    found = _own_yield(func)
    return f"a generator function (it yields at line {found.lineno})" if found is not None else None


def yields(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> bool:
    """Does the function's own scope yield (values handed back, through a generator)?"""
    return _own_yield(func) is not None


def _own_yield(func: ast.FunctionDef | ast.Lambda) -> ast.expr | None:
    """The first ``yield`` of the function's own scope: a nested function, lambda or class
    is a scope of its own, but its decorators, defaults and bases are evaluated in this one."""
    stack = [func.body] if isinstance(func, ast.Lambda) else list(reversed(func.body))
    while stack:
        node = stack.pop()
        if isinstance(node, _YIELDS):
            return node
        stack.extend(reversed(_outer_parts(node) if isinstance(node, _SCOPES) else list(ast.iter_child_nodes(node))))
    return None


def _outer_parts(node: ast.AST) -> list[ast.AST]:
    """What a nested scope's statement evaluates in the scope around it."""
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
    args = node.args
    defaults = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    return defaults if isinstance(node, ast.Lambda) else [*node.decorator_list, *defaults]
