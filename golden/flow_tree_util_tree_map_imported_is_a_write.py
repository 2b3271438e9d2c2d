import jax
from jax.experimental.hijax import VJPHiPrimitive
from jax.tree_util import tree_map as tm

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        tm(lambda q, w: q.accum(w), y_acc, g * x)
        return g * y, g * x
# output
import jax
from jax.experimental.hijax import VJPHiPrimitive
from jax.tree_util import tree_map as tm

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        tm(lambda q, w: q.accum(w), y_acc, g * x)
        x_acc.accum(g * y)
        return None
# findings
