from jax.experimental import hijax

def _resolve(*names):
    return next(getattr(hijax, n) for n in names if hasattr(hijax, n))

def _bwd(self, res, g):
    return (2.0 * g,)

def _fwd(self, nzs_in, x):
    return x, None

Op = type("Op", (_resolve("HiPrim", "VJPHiPrimitive"),), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})
# findings
# 12 error HJX016 a class made by a call: `vjp_bwd` is bound by a type() member (`Op = type("Op", (_resolve("HiPrim", "VJPHiPrimitive"),), {"vjp_fwd"...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
