import jax
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res

        def write(acc, ct):
            acc.accum(ct)
            acc.accum(ct)

        jax.tree.map(write, x_acc, g * y)
        return g * y, g * x
# findings
# 8 error HJX001 Mul: `x_acc` is handed to a call at line 15: `jax.tree.map` is not a method of the class nor a function of this module; whether it is written before the return at line 16 cannot be decided; write the accumulators by hand
