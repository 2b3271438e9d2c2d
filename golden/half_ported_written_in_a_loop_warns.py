from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for part in self.parts:
            x_acc.accum(part * g * y)
        return g * y, g * x
# findings
# 9 error HJX001 Mul: `x_acc` is written on some paths (line 12), not on all that reach the return at line 13; not guessing which count
