from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)


def _value_bwd(self, res, g):
    return (2.0 * g,)


def _accum_bwd(self, res, g, x_acc):
    x_acc.accum(2.0 * g)


def _fwd(self, nzs_in, x):
    return x, None


Right = type("Right", (_BASES[0],), {"vjp_fwd": _fwd, "vjp_bwd": _accum_bwd})
Wrong = type("Wrong", (_BASES[0],), {"vjp_fwd": _fwd, "vjp_bwd": _value_bwd})
# findings
# 19 error HJX016 a class made by a call: `vjp_bwd` is bound by a type() member (`Wrong = type("Wrong", (_BASES[0],), {"vjp_fwd": _fwd, "vjp_bwd": _v...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
