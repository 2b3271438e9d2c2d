# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, g):
        try:
            return (g * 100.0,)
        finally:
            return (2.0 * g,)
# output
from jax.experimental.hijax import HiPrim

class Scale(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, sres, g, x_acc):
        try:
            (g * 100.0,)
            return None
        finally:
            x_acc.accum(2.0 * g)
            return None
# findings
