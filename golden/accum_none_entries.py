# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class First(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x, None

    def vjp_bwd(self, res, g):
        return (g, None)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class First(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        jax.tree.map(lambda acc, ct: acc.accum(ct), x_acc, g)
        return None
