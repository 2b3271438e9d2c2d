# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if g is None:
            return
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return None


class Logged(VJPHiPrimitive):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)
        return {"g_norm": g}
