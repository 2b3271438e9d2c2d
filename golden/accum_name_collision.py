# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x_acc = res
        return (g * x_acc[1], g * x_acc[0])
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc_, y_acc):
        x_acc = res
        x_acc_.accum(g * x_acc[1])
        y_acc.accum(g * x_acc[0])
        return None
