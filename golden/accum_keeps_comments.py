# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    # The product rule.
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)  # residuals

    def vjp_bwd(self, res, g):  # classic rule
        x, y = res  # unpack

        # both cotangents at once
        return (g * y, g * x)  # end

    def other(self):
        return (1, 2)  # untouched
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    # The product rule.
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)  # residuals

    def vjp_bwd(self, res, g, x_acc, y_acc):  # classic rule
        x, y = res  # unpack

        # both cotangents at once
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return None  # end

    def other(self):
        return (1, 2)  # untouched
