# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (g * y, self._grad_y(g, x))
        except NotImplementedError:
            return (g * y, g * x)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        try:
            ct0 = g * y
            ct1 = self._grad_y(g, x)
            x_acc.accum(ct0)
            jax.tree.map(lambda acc, ct: acc.accum(ct), y_acc, ct1)
            return None
        except NotImplementedError:
            ct0 = g * y
            ct1 = g * x
            x_acc.accum(ct0)
            y_acc.accum(ct1)
            return None
