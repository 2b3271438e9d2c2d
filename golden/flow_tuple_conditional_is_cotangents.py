# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return (g * y, g * x) if self.params else (g * 0, g * 0)
# output
from jax.experimental.hijax import HiPrim

class Mul(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return None
# findings
