from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


def _maybe(acc, ct):
    if ct is not None:
        acc.accum(ct)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        _maybe(x_acc, g * y)
        return g * y, g * x
# findings
# 14 error HJX001 Mul: `x_acc` is handed to a call at line 16: `_maybe` does not write `acc` exactly once on every path (line 5); whether it is written before the return at line 17 cannot be decided; write the accumulators by hand
