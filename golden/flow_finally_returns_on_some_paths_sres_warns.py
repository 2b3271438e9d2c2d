# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, g):
        try:
            return (2.0 * g,)
        finally:
            if self.params:
                return (g * 100.0,)
# output
from jax.experimental.hijax import HiPrim

class Scale(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None, True, 2.0

    def vjp_bwd(self, res, g):
        try:
            return (2.0 * g,)
        finally:
            if self.params:
                return (g * 100.0,)
# findings
# 7 error HJX001 Scale: the `finally` block at line 10 may return, raise, break or continue, or not: whether the value returned at line 9 is returned or dropped cannot be decided; write the accumulators by hand
