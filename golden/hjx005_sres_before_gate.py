# flags: --target-jax 0.11.0
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y), True, 2.0

    def vjp_bwd_retval(self, res, sres, g):
        x, y = res
        return (sres * g * y, None)
