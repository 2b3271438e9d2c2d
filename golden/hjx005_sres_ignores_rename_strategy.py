# flags: --target-jax 0.11.1 --strategy rename
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, g):
        return (2.0 * g,)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, sres, g, x_acc):
        x_acc.accum(2.0 * g)
        return None
