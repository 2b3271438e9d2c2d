from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for acc, ct in zip((x_acc, y_acc), (g * y,)):
            acc.accum(ct)
        return g * y, g * x
# findings
# 7 error HJX001 Mul: `x_acc` is handed to a call at line 9: `zip` is not a function defined once in this module; whether it is written before the return at line 11 cannot be decided; write the accumulators by hand
