from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * res * g,)


def _fwd(self, nzs_in, x):
    return x * x, x


Sq = type("Sq", (VJPHiPrimitive,), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})
RULE = getattr(Sq, "vjp_bwd")
# findings
# 12 error HJX016 a class made by a call: `vjp_fwd` is bound by a type() member (`Sq = type("Sq", (VJPHiPrimitive,), {"vjp_fwd": _fwd, "vjp_bwd": _bwd})`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
