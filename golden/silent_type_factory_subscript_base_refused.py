from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)

def _bwd(self, res, g):
    return (2.0 * g,)

def _fwd(self, nzs_in, x):
    return x, None

Op = type("Op", (_BASES[0],), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})
# findings
# 11 error HJX016 a class made by a call: `vjp_bwd` is bound by a type() member (`Op = type("Op", (_BASES[0],), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
