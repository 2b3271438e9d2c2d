from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


def _write(acc, ct, depth):
    if depth:
        return _write(acc, ct, depth - 1)
    acc.accum(ct)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        _write(x_acc, g * y, 2)
        return g * y, g * x
# findings
# 15 error HJX001 Mul: `x_acc` is handed to a call at line 17: `_write` hands `acc` on: `_write` calls itself, or helpers too deep (4), to be read (line 5); whether it is written before the return at line 18 cannot be decided; write the accumulators by hand
