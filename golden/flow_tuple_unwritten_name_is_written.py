# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        cts = (g * y, g * x)
        return cts
# output
from jax.experimental.hijax import HiPrim
import jax

class Mul(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        cts = (g * y, g * x)
        jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc), cts)
        return None
# findings
