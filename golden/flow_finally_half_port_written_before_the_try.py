from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        try:
            return g * 100.0, g * 100.0
        finally:
            return g * y, g * x
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        try:
            g * 100.0, g * 100.0
            return None
        finally:
            ct0 = g * y
            ct1 = g * x
            y_acc.accum(ct1)
            return None
# findings
