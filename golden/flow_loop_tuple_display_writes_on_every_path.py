from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for scale in (1.0,):
            x_acc.accum(scale * g * y)
        for _ in zip((1, 2), (3, 4)):
            pass
        else:
            y_acc.accum(g * x)
        return g * y, g * x
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for scale in (1.0,):
            x_acc.accum(scale * g * y)
        for _ in zip((1, 2), (3, 4)):
            pass
        else:
            y_acc.accum(g * x)
        return None
# findings
