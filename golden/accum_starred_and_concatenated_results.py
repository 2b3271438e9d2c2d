# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive


class Three(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y, z):
        return x * y * z, (x, y, z)

    def vjp_bwd(self, res, g):
        x, y, z = res
        first = (g * y * z, g * x * z)
        if g is None:
            return (*first, None)
        return first + (g * x * y,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax


class Three(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y, z):
        return x * y * z, (x, y, z)

    def vjp_bwd(self, res, g, x_acc, y_acc, z_acc):
        x, y, z = res
        first = (g * y * z, g * x * z)
        if g is None:
            jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc, z_acc), (*first, None))
            return None
        jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc, z_acc), first + (g * x * y,))
        return None
# findings
