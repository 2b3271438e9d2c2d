from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * res * g,)


def _fwd(self, nzs_in, x):
    return x * x, x


Sq = type("Sq", (VJPHiPrimitive,), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})
RULE = getattr(Sq, "vjp_bwd")
# findings
# 12 error HJX001 Sq: `type(...)` places `vjp_bwd = _bwd`: it is reached by name at line 13 (`getattr(Sq, "vjp_bwd")`): a rename would not follow it there
