"""Does a ``vjp_fwd`` take ``nzs_in``? From ``ast``: the function and the methods beside it.

jax (0.9 on) calls ``vjp_fwd(nzs_in, *inputs)``: with the number of inputs
known (``in_avals``, ``expand``), the signature says which call it accepts,
whatever its first parameter is called. Only without it does the name decide.
HJX002 reads this of a ``def vjp_fwd``; HJX016 of a function bound to the name
in another form (an assignment, a ``type()`` member): the same fact.
"""

from __future__ import annotations

import ast

from . import class_body
from .returns import tuple_sizes

Methods = dict[str, ast.FunctionDef]  # the functions a class binds, by name


def lacks_nzs_in(fwd: ast.FunctionDef | None, methods: Methods) -> bool | None:
    """Does ``fwd``, the class's ``vjp_fwd``, lack ``nzs_in``? None: its signature
    cannot be judged; False where there is none."""
    if fwd is None:
        return False
    skip = 0 if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fwd.decorator_list) else 1
    names = positional(fwd)[skip:]
    least = len(positional(fwd)) - len(fwd.args.defaults) - skip
    count = input_count(methods)
    if count is None or fwd.args.vararg is not None:
        return not names or "nz" not in names[0].lower()
    takes = [least <= n <= len(names) for n in (count, count + 1)]
    if takes[0] != takes[1]:
        return takes[0]
    return None if not any(takes) or not names else "nz" not in names[0].lower()


def input_count(methods: Methods) -> int | None:
    """How many inputs the primitive takes: the length of the first
    ``self.in_avals = (...)``/``[...]`` in ``__init__``, else ``expand``'s
    required parameters; None: not known."""
    avals, expand = in_avals(methods), methods.get("expand")
    if avals is not None:
        return len(avals.elts)
    if expand is not None and expand.args.vararg is None:
        return len(positional(expand)) - len(expand.args.defaults) - 1
    return None


def input_names(methods: Methods) -> list[str] | None:
    """The primitive's inputs by name: ``expand``'s required parameters after ``self``
    (jax passes one argument per input), else ``vjp_fwd``'s positional ones after
    ``self`` and ``nzs_in``; None where a ``*args`` hides them."""
    expand, fwd = methods.get("expand"), methods.get("vjp_fwd")
    if expand is not None and expand.args.vararg is None:
        return positional(expand)[1 : len(positional(expand)) - len(expand.args.defaults)]
    if fwd is None or fwd.args.vararg is not None:
        return None
    names = positional(fwd)[1:]
    return names[1:] if names and "nz" in names[0].lower() else names


def in_avals(methods: Methods) -> ast.Tuple | ast.List | None:
    """The display of the first ``self.in_avals = (...)``/``[...]`` in ``__init__`` (source order)."""
    init = methods.get("__init__")
    found = (
        [
            n
            for n in ast.walk(init)
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and _is_self_in_avals(n.targets[0])
            and isinstance(n.value, (ast.Tuple, ast.List))
        ]
        if init is not None
        else []
    )
    return min(found, key=lambda n: (n.lineno, n.col_offset)).value if found else None


_PYTREE_BUILDERS = ("tuple", "list", "dict")


def is_pytree_literal(expr: ast.expr) -> bool:
    """A dict, tuple or list display, or a call of ``tuple``/``list``/``dict`` (a starred item: what it unpacks)."""
    expr = expr.value if isinstance(expr, ast.Starred) else expr
    if isinstance(expr, (ast.Dict, ast.Tuple, ast.List)):
        return True
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _PYTREE_BUILDERS


def structured_residuals(methods: dict[str, ast.FunctionDef]) -> bool:
    """Does the class's ``vjp_fwd`` return a tuple of four: residuals the backward rule takes (``sres``)?"""
    fwd = methods.get("vjp_fwd")
    return fwd is not None and 4 in tuple_sizes(fwd)


def inherited_inputs(cls: ast.ClassDef, by_name: dict[str, ast.ClassDef]) -> list[str] | None:
    """``input_names`` of the ``expand``/``vjp_fwd`` ``cls`` defines or inherits from a
    class ``by_name`` gives (a base named plainly), the nearest first."""
    methods: dict[str, ast.FunctionDef] = {}
    chain, seen = [cls], set()
    while chain:
        node = chain.pop(0)
        if id(node) in seen:
            continue
        seen.add(id(node))
        for name, func in class_body.methods(node).items():
            methods.setdefault(name, func)
        chain += [by_name[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in by_name]
    return input_names(methods)


def positional(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args)]


def _is_self_in_avals(target: ast.expr) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "in_avals"
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    )
