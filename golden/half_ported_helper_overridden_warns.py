from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def _write(self, acc, ct):
        acc.accum(ct)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        self._write(x_acc, g * y)
        return g * y, g * x


class Quiet(Mul):
    def _write(self, acc, ct):
        pass
# findings
# 12 error HJX001 Mul: `x_acc` is handed to a call at line 14: `self._write` is overridden in the subclass Quiet; whether it is written before the return at line 15 cannot be decided; write the accumulators by hand
