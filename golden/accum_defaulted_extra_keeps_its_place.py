# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, verbose=False, *, scale=1):
        x, y = res
        return (scale * g * y, scale * g * x)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc, verbose=False, *, scale=1):
        x, y = res
        x_acc.accum(scale * g * y)
        y_acc.accum(scale * g * x)
        return None
