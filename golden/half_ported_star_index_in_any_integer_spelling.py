# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        x, y = res
        arg_accums[0x0].accum(g * y)
        return None, g * x
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        x, y = res
        arg_accums[0x0].accum(g * y)
        arg_accums[1].accum(g * x)
        return None
