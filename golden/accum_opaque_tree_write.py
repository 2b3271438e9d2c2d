# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Many(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g):
        return self.split(g)

    def split(self, g):
        return g, g
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class Many(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc), self.split(g))
        return None

    def split(self, g):
        return g, g
