# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd_retval(self, res, g):
        gx, gy = super().vjp_bwd_retval(res, g)
        return 2 * gx, 2 * gy
