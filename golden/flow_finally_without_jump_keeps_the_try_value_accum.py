# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (g * y, g * x)
        finally:
            for _ in self.params:
                break
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        try:
            ct0 = g * y
            ct1 = g * x
            x_acc.accum(ct0)
            y_acc.accum(ct1)
            return None
        finally:
            for _ in self.params:
                break
# findings
