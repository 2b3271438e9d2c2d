"""A rule bound rather than defined (``vjp_bwd = f``, ``partialmethod(f, ...)``, a
lambda, a ``type(...)`` member): the function it names, and that function's form.

Plain functions of the module's tree: the family and factory planners both ask.
"""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import is_name
from ...analysis.summary import CLASSIC, rule_form


def function_named(module: cst.Module, name: str, cls: cst.ClassDef | None) -> cst.FunctionDef | None:
    """The function a class body's binding names: one of the body's own, or the module's."""
    for body in ([cls.body.body] if cls is not None else []) + [module.body]:
        funcs = [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if funcs:
            return funcs[-1]
    return None


def bound_function(
    module: cst.Module, value: cst.BaseExpression, cls: cst.ClassDef | None = None
) -> tuple[cst.FunctionDef | None, int]:
    """The function a body binding names (``cls``: one of its body's own first, then the
    module's), and how many positional parameters after ``self`` a ``partialmethod`` fills."""
    bound = 0
    if (
        isinstance(value, cst.Call)
        and _is_partialmethod(value.func)
        and value.args
        and isinstance(value.args[0].value, cst.Name)
        and not value.args[0].keyword
        and not any(arg.star for arg in value.args)
    ):
        # ``partialmethod(f, 1.0, scale=2)``: f, the positional parameters it fills bound
        bound = sum(arg.keyword is None for arg in value.args[1:])
        value = value.args[0].value
    return (function_named(module, value.value, cls) if isinstance(value, cst.Name) else None), bound


def bound_form(module: cst.Module, value: cst.BaseExpression, cls: cst.ClassDef | None = None) -> str:
    """``CLASSIC``, ``"accumulator"``, or the binding's code where its form is not visible."""
    if isinstance(value, cst.Lambda):
        params = value.params
        few = len(params.params) + len(params.posonly_params) <= 3 and not isinstance(params.star_arg, cst.Param)
        returns = not (is_name(value.body, "None") or isinstance(value.body, cst.Dict))
        return CLASSIC if few and returns else "accumulator"
    func, bound = bound_function(module, value, cls)
    if func is not None:
        return rule_form(_without_first(func, bound))
    return f"`{cst.Module([]).code_for_node(value)}`"


def _without_first(func: cst.FunctionDef, count: int) -> cst.FunctionDef:
    """``func`` with the ``count`` positional parameters after ``self`` taken (by ``partialmethod``)."""
    if not count:
        return func
    params = [*func.params.posonly_params, *func.params.params]
    return func.with_changes(
        params=func.params.with_changes(posonly_params=[], params=[*params[:1], *params[1 + count :]])
    )


def _is_partialmethod(func: cst.BaseExpression) -> bool:
    return is_name(func, "partialmethod") or (
        isinstance(func, cst.Attribute) and func.attr.value == "partialmethod" and is_name(func.value, "functools")
    )
