# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        logs = _backward(res, g, x_acc, y_acc)
        return logs
# findings
# 7 note HJX001 Mul: `vjp_bwd` hands its accumulators to a call (line 8) on every path to the return at line 9, and returns a value that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and left as written; if it is cotangents, return None instead
