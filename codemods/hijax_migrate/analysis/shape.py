"""What a primitive class looks like: its rules, inputs and residuals."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import class_body
from .bridge import Bridge
from .nodes import findall, is_attribute, is_call, is_name, sole_target
from .returns import tuple_sizes

_PYTREE_BUILDERS = ("tuple", "list", "dict")


def positional(func: cst.FunctionDef) -> list[str]:
    """Names of the positional parameters, ``self`` included."""
    params = func.params
    return [p.name.value for p in (*params.posonly_params, *params.params)]


def required(func: cst.FunctionDef) -> list[str]:
    """Names of the positional parameters without a default, ``self`` included."""
    params = func.params
    return [p.name.value for p in (*params.posonly_params, *params.params) if p.default is None]


def last_def(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The ``def name`` of the class body that Python keeps: the last one."""
    defs = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    return defs[-1] if defs else None


def is_static(func: cst.FunctionDef) -> bool:
    return any(is_name(d.decorator, "staticmethod") for d in func.decorators)


def conditional_defs(cls: cst.ClassDef, bridge: Bridge) -> dict[str, cst.FunctionDef]:
    """``class_body.conditional_defs`` of ``ast``'s statement of ``cls``, as libcst's nodes."""
    return {name: bridge.cst_of(func) for name, func in class_body.conditional_defs(bridge.ast_of(cls)).items()}


def star_name(func: cst.FunctionDef) -> str | None:
    star = func.params.star_arg
    return star.name.value if isinstance(star, cst.Param) else None


def is_nzs_name(name: str) -> bool:
    return "nz" in name.lower()


@dataclass
class ClassShape:
    methods: dict[str, cst.FunctionDef]
    attributes: dict[str, cst.Assign]  # the body's last `... name ... = value` (on a line of its own or not)
    inputs: list[str] | None  # positional inputs of the primitive, if visible
    pytree_inputs: frozenset[int]  # positions whose input is a literal pytree
    has_sres: bool  # vjp_fwd returns (out, res, nzs_out, sres)


def inputs_of(methods: dict[str, cst.FunctionDef]) -> list[str] | None:
    expand = methods.get("expand")
    if expand is not None and star_name(expand) is None:
        return required(expand)[1:]  # jax passes one argument per input: defaults stay
    fwd = methods.get("vjp_fwd")
    if fwd is None or star_name(fwd) is not None:
        return None
    names = positional(fwd)[1:]
    return names[1:] if names and is_nzs_name(names[0]) else names


def _in_avals(init: cst.FunctionDef | None) -> cst.Tuple | cst.List | None:
    if init is None:
        return None
    for assign in findall(init.body, cst.Assign, _is_self_in_avals):
        return assign.value
    return None


def _is_self_in_avals(assign: cst.Assign) -> bool:
    """``self.in_avals = (...)`` or ``[...]``."""
    target = sole_target(assign)
    return (
        is_attribute(target, "in_avals")
        and is_name(target.value, "self")
        and isinstance(assign.value, (cst.Tuple, cst.List))
    )


def _is_pytree_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, (cst.Dict, cst.Tuple, cst.List)):
        return True
    return is_call(expr, *_PYTREE_BUILDERS)


def class_shape(node: cst.ClassDef, bridge: Bridge) -> ClassShape:
    """``bridge``: the tree's statements with ``ast``'s, where the facts of the body are read
    (``class_body``: its methods and assignments, whatever its layout; what the rules return)."""
    stmt = bridge.ast_of(node)
    methods = {name: bridge.cst_of(func) for name, func in class_body.methods(stmt).items()}
    attributes = {name: bridge.cst_of(a) for name, a in class_body.assignments(stmt).items()}
    avals = _in_avals(methods.get("__init__"))
    inputs = inputs_of(methods)
    if avals is not None and (inputs is None or len(inputs) != len(avals.elements)):
        inputs = [f"arg{i}" for i in range(len(avals.elements))]
    pytrees = (
        frozenset(i for i, e in enumerate(avals.elements) if _is_pytree_literal(e.value)) if avals else frozenset()
    )
    fwd = methods.get("vjp_fwd")  # a tuple of four: it returns residuals the backward rule takes
    return ClassShape(methods, attributes, inputs, pytrees, fwd is not None and 4 in tuple_sizes(bridge.ast_of(fwd)))
