"""HJX001's reading of a rule bound rather than defined (``vjp_bwd = f``): the
function a binding names, and its form, as plain functions of the module."""

import libcst as cst
import pytest
from hijax_migrate.analysis.scopes import CLASSIC
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.rules.bwd_returns_cotangents.bindings import bound_form, bound_function, function_named

MODULE = cst.parse_module("""
import functools
from functools import partialmethod

def value(self, res, g):
    return (g,)

def scaled(self, scale, res, g):
    return (g * scale,)

def accum(self, res, g, x_acc):
    x_acc.accum(g)

def value(self, res, g):  # the last one is the one bound
    return (g, g)

class Prim:
    def value(self, res, g, x_acc):  # the body's own comes first
        x_acc.accum(g)
""")
PRIM = next(s for s in MODULE.body if isinstance(s, cst.ClassDef))


def binding(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def test_the_function_named_is_the_bodys_own_then_the_modules_last():
    assert function_named(MODULE, "value", PRIM) is PRIM.body.body[0]
    last = [s for s in MODULE.body if isinstance(s, cst.FunctionDef) and s.name.value == "value"][-1]
    assert function_named(MODULE, "value", None) is last
    assert function_named(MODULE, "missing", PRIM) is None


@pytest.mark.parametrize(
    "code, name, filled",
    [
        ("scaled", "scaled", 0),
        ("partialmethod(scaled, 2.0)", "scaled", 1),
        ("functools.partialmethod(scaled, 2.0, extra=1)", "scaled", 1),
        ("partialmethod(*args)", None, 0),
        ("other.partialmethod(scaled, 2.0)", None, 0),
    ],
)
def test_a_partialmethod_names_its_function_and_fills_its_positional_parameters(code, name, filled):
    func, bound = bound_function(MODULE, binding(code))
    assert (func.name.value if func is not None else None, bound) == (name, filled)


@pytest.mark.parametrize(
    "code, form",
    [
        ("value", CLASSIC),
        ("accum", "accumulator"),
        ("partialmethod(scaled, 2.0)", CLASSIC),  # (self, res, g) once ``scale`` is filled
        ("lambda self, res, g: (g,)", CLASSIC),
        ("lambda self, res, g: None", "accumulator"),
        # takes accumulators, yet returns a tuple (jax 0.12 refuses it): no form shown
        ("lambda self, res, g, *accs: (g,)", "`lambda self, res, g, *accs: (g,)`"),
        ("lambda self, res, g, acc: acc.accum(g)", "accumulator"),
        ("make_rule()", "`make_rule()`"),  # no form visible: the binding's code, for the message
    ],
)
def test_a_bindings_form(code, form):
    assert bound_form(MODULE, binding(code), bridge_of(MODULE, MODULE.code)) == form
