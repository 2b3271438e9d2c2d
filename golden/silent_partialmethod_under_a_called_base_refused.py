import functools
from jax.experimental import hijax

def _resolve(*names):
    return next(getattr(hijax, n) for n in names if hasattr(hijax, n))

class Lin(_resolve("HiPrim", "VJPHiPrimitive")):
    def vjp_fwd(self, nzs_in, x):
        return x, None

def _bwd(self, res, g, scale=1.0):
    return (scale * g,)

class Sub(Lin):
    vjp_bwd = functools.partialmethod(_bwd, scale=2.0)
# findings
# 15 error HJX016 Sub: `vjp_bwd` is bound by an assignment (`vjp_bwd = functools.partialmethod(_bwd, scale=2.0)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
