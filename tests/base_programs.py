"""A generator of primitives whose base is written in every form the language
allows (enumeration D), for the property tests of issue 40.

A program is one module: tree classes (a primitive ``P1``, a plain ``N1``,
``NS`` importing the base in its body, a nested primitive ``Outer.Inner``,
a probed ``Probed``, ``BASES``), and ``Op`` with a base expression built from
them (a name, an attribute of a class, a subscript, a call, ``A if FLAG else
B``, ``A or B``, a walrus, a starred literal, ``Generic[T]`` besides, PEP 695
parameters, a metaclass keyword), a backward rule (a value rule, or a switch
on jax's version between both forms) and, sometimes, an exact version gate
that raises. ``FLAG`` is True: what each form evaluates to is known here
(``Program.primitive``), so a test can say what Python will do.

``build(rng)`` takes a ``random.Random``: hypothesis gives one
(``st.randoms``), the jax runs a seeded one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# atom -> is it a hijax primitive when the code runs (None: a module outside, not importable)
ATOMS = {
    "P1": True,
    "N1": False,
    "VJPHiPrimitive": True,
    "NS.VJPHiPrimitive": True,
    "NS.hjx.VJPHiPrimitive": True,
    "Outer.Inner": True,
    "BASES[0]": True,
    "Probed": True,
    '_resolve("HiPrim", "VJPHiPrimitive")': True,
    "Ext": None,
}

_PRELUDE = """import jax
import jax.numpy as jnp
import jax.experimental.hijax as hijax
from typing import Generic, TypeVar
from jax.experimental.hijax import VJPHiPrimitive
{ext}
FLAG = True
T = TypeVar("T")
{gate}

def _resolve(*names):
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)
    raise ImportError(names)


Probed = _resolve("HiPrim", "VJPHiPrimitive")
BASES = (VJPHiPrimitive,)


class P1(VJPHiPrimitive):
    pass


class N1:
    pass


class NS:
    from jax.experimental.hijax import VJPHiPrimitive
    import jax.experimental.hijax as hjx


class Outer:
    class Inner(VJPHiPrimitive):
        pass

"""
_GATE = """
_SUPPORTED_VERSION = "0.11.0"
if (jax.__version__ != _SUPPORTED_VERSION or FLAG is None):
    raise ImportError("needs jax 0.11.0")
"""
_OP = """
class Op{params}({bases}):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, x):
        return x * 3.0

    def vjp_fwd(self, nzs_in, x):
        return x * 3.0, None
{rule}

def f(x):
    return jnp.sum(Op(jax.typeof(x))(x))


def plain(x):
    return jnp.sum(x * 3.0)


ARGS = (jnp.array([1.0, 2.0]),)
"""
VALUE_RULE = """
    def vjp_bwd(self, res, g):
        return (g * 3.0,)
"""
SWITCH_RULE = """
    if jax.__version_info__ >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 3.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 3.0,)
"""
FORMS = ("atom", "ifexp", "or", "walrus", "starred", "generic", "pep695", "metaclass")


@dataclass(frozen=True)
class Program:
    code: str
    form: str
    atoms: tuple[str, ...]  # the atoms the base expression names, the one Python picks first
    primitive: bool | None  # is Op a hijax primitive when the code runs (None: not importable)
    switch: bool  # the rule switches on jax's version
    gate: bool  # an exact version gate raises on every release but 0.11.0

    @property
    def runnable(self) -> bool:
        """Can jax 0.10 (Python 3.11) import it, and is Op a primitive?"""
        return self.primitive is True and self.form != "pep695" and not self.gate


def build(rng: random.Random, forms=FORMS, atoms=tuple(ATOMS)) -> Program:
    form = rng.choice(forms)
    first, second = rng.choice(atoms), rng.choice(tuple(ATOMS))
    base = {
        "atom": first,
        "ifexp": f"{first} if FLAG else {second}",
        "or": f"{first} or {second}",
        "walrus": f"(W := {first})",
        "starred": f"*({first},)",
        "generic": f"{first}, Generic[T]",
        "pep695": first,
        "metaclass": f"{first}, metaclass=type",
    }[form]
    switch, gate = rng.random() < 0.25, rng.random() < 0.15
    ext = "from ext_lib import Ext\n" if "Ext" in (first, second) else ""
    code = _PRELUDE.format(ext=ext, gate=_GATE if gate else "") + _OP.format(
        params="[U]" if form == "pep695" else "", bases=base, rule=SWITCH_RULE if switch else VALUE_RULE
    )
    named = (first, second) if form in ("ifexp", "or") else (first,)
    primitive = None if ext else ATOMS[first]
    return Program(code, form, named, primitive, switch, gate)
