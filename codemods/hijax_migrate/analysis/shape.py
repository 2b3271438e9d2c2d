"""What a primitive class looks like: its rules, inputs and residuals."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import class_body
from .bridge import Bridge
from .fwd_signature import in_avals, input_names, is_pytree_literal, structured_residuals
from .nodes import is_name


def positional(func: cst.FunctionDef) -> list[str]:
    """Names of the positional parameters, ``self`` included."""
    params = func.params
    return [p.name.value for p in (*params.posonly_params, *params.params)]


def last_def(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The ``def name`` of the class body that Python keeps: the last one."""
    defs = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    return defs[-1] if defs else None


def is_static(func: cst.FunctionDef) -> bool:
    return any(is_name(d.decorator, "staticmethod") for d in func.decorators)


def conditional_defs(cls: cst.ClassDef, bridge: Bridge) -> dict[str, cst.FunctionDef]:
    """``class_body.conditional_defs`` of ``ast``'s statement of ``cls``, as libcst's nodes."""
    return {name: bridge.cst_of(func) for name, func in class_body.conditional_defs(bridge.ast_of(cls)).items()}


@dataclass
class ClassShape:
    methods: dict[str, cst.FunctionDef]
    attributes: dict[str, cst.Assign]  # the body's last `... name ... = value` (on a line of its own or not)
    inputs: list[str] | None  # positional inputs of the primitive, if visible
    pytree_inputs: frozenset[int]  # positions whose input is a literal pytree
    has_sres: bool  # vjp_fwd returns (out, res, nzs_out, sres)


def class_shape(node: cst.ClassDef, bridge: Bridge) -> ClassShape:
    """``bridge``: the tree's statements with ``ast``'s, where the facts of the body are read
    (``class_body``: its methods and assignments, whatever its layout; what the rules return)."""
    stmt = bridge.ast_of(node)
    own = class_body.methods(stmt)
    methods = {name: bridge.cst_of(func) for name, func in own.items()}
    attributes = {name: bridge.cst_of(a) for name, a in class_body.assignments(stmt).items()}
    avals, inputs = in_avals(own), input_names(own)
    if avals is not None and (inputs is None or len(inputs) != len(avals.elts)):
        inputs = [f"arg{i}" for i in range(len(avals.elts))]
    pytrees = frozenset(i for i, e in enumerate(avals.elts) if is_pytree_literal(e)) if avals else frozenset()
    return ClassShape(methods, attributes, inputs, pytrees, structured_residuals(own))
