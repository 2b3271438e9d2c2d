from typing import Callable

from jax.experimental.hijax import VJPHiPrimitive


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd: Callable = _mul_bwd


class Other(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# findings
# 15 error HJX016 Mul: `vjp_bwd` is bound by an annotated assignment (`vjp_bwd: Callable = _mul_bwd`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
