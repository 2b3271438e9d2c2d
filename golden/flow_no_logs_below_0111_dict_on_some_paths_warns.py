# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if g is None:
            return {"skipped": True}
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return {"g": g}
# findings
# 7 error HJX001 Mul: line 10 returns a dict of backward-pass logs, which jax reads from 0.11.1 only (the target is older), and not every accumulator is written on every path to it: return None there, writing the accumulators by hand
