# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Clip(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, res, g):
        if g is None: return (None,)
        return (g,)  # pass through
# output
from jax.experimental.hijax import VJPHiPrimitive

class Clip(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, res, g, x_acc):
        if g is None: return None
        x_acc.accum(g)
        return None  # pass through
