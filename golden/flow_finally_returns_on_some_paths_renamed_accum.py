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
            if self.params:
                return (g * 2.0, g * 2.0)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        try:
            return (g * y, g * x)
        finally:
            if self.params:
                return (g * 2.0, g * 2.0)
# findings
# 7 note HJX001 Mul: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): the `finally` block at line 11 may return, raise, break or continue, or not: whether the value returned at line 10 is returned or dropped cannot be decided
