from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        dx, dy = g * y, g * x
        x_acc.accum(dx)
        return dx, dy
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        dx, dy = g * y, g * x
        x_acc.accum(dx)
        jax.tree.map(lambda acc, ct: acc.accum(ct), y_acc, dy)
        return None
