# flags: --target-jax 0.12
# `install` sets `vjp_bwd` on whatever class it is given, here a primitive of this module:
# a value rule placed where no rule of the tool follows it. An error names the line.
from jax.experimental.hijax import HiPrim


def _bwd(self, res, g):
    return (g * 2.0,)


def install(cls):
    setattr(cls, "vjp_bwd", _bwd)


class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None


install(Op)
# findings
# 11 error HJX016 a class a function is given: `vjp_bwd` is bound by setattr (`setattr(cls, "vjp_bwd", _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
