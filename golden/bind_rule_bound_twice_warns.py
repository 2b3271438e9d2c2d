from jax.experimental.hijax import VJPHiPrimitive


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)

    vjp_bwd = _mul_bwd
# findings
# 18 error HJX016 Mul: `vjp_bwd` is bound 2 times in the class body, by a def, an assignment (lines 13, 18): which binding is the rule depends on their order, and a rule follows one at a time, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
