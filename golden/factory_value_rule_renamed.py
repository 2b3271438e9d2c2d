# flags: --target-jax 0.12
from types import SimpleNamespace

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


def _accum_bwd(self, res, g, x_acc):
    x_acc.accum(g)


Op = type("Op", (VJPHiPrimitive,), {"vjp_bwd": _bwd})
Accum = type("Accum", (VJPHiPrimitive,), {"vjp_bwd": _accum_bwd})  # right as it is
Plain = type("Plain", (SimpleNamespace,), {"vjp_bwd": _bwd})  # no hijax base
Lambda = type("Lambda", (VJPHiPrimitive,), {"vjp_bwd": lambda self, res, g: (g,)})
Unknown = type("Unknown", tuple(bases()), {"vjp_bwd": _bwd})
# output
from types import SimpleNamespace

from jax.experimental.hijax import HiPrim


def _bwd(self, res, g):
    return (g,)


def _accum_bwd(self, res, g, x_acc):
    x_acc.accum(g)


Op = type("Op", (HiPrim,), {"vjp_bwd_retval": _bwd})
Accum = type("Accum", (HiPrim,), {"vjp_bwd": _accum_bwd})  # right as it is
Plain = type("Plain", (SimpleNamespace,), {"vjp_bwd": _bwd})  # no hijax base
Lambda = type("Lambda", (HiPrim,), {"vjp_bwd": lambda self, res, g: (g,)})
Unknown = type("Unknown", tuple(bases()), {"vjp_bwd": _bwd})
# findings
# 18 note  `type(...)` places `vjp_bwd = _bwd`: its bases cannot be decided; if they are hijax primitives and the rule returns cotangents, make its key `"vjp_bwd_retval"` by hand (jax 0.8.1 on)
# 17 note HJX001 Lambda: `type(...)` places `vjp_bwd = lambda self, res, g: (g,)`: its form cannot be read here (not a function of this module): if it returns cotangents, make its key `"vjp_bwd_retval"` by hand (jax 0.8.1 on)
