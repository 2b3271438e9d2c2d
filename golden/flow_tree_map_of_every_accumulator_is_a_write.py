import jax
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        x, y = res
        jax.tree.map(lambda acc, ct: acc.accum(ct), arg_accums, (g * y, g * x))
        return g * y, g * x
# output
import jax
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        x, y = res
        jax.tree.map(lambda acc, ct: acc.accum(ct), arg_accums, (g * y, g * x))
        return None
# findings
