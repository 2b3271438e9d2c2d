# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        tuple = dict
        return tuple(g=g)
# output
from jax.experimental.hijax import HiPrim

class Mul(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        tuple = dict
        return tuple(g=g)
# findings
# 7 note HJX001 Mul: `vjp_bwd` writes every accumulator on every path to the return at line 12, and returns a value that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and left as written; if it is cotangents, return None instead
