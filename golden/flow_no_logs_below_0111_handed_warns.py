# flags: --target-jax 0.10.2
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        logs = _backward(res, g, x_acc, y_acc)
        return logs
# findings
# 7 error HJX001 Mul: `x_acc` is handed to a call at line 8: `_backward` is not a function defined once in this module; whether it is written before the return at line 9 cannot be decided; write the accumulators by hand
