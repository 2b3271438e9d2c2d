from jax.experimental.hijax import VJPHiPrimitive


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


setattr(Mul, "vjp_bwd", _mul_bwd)
# findings
# 14 error HJX016 Mul: `vjp_bwd` is bound by setattr (`setattr(Mul, "vjp_bwd", _mul_bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
