# flags: --strategy accum
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    if jax.__version_info__ >= (0, 9):
        def vjp_bwd(self, res, g):
            x, y = res
            return [g * y, g * x]
    else:
        def vjp_bwd(self, res, g):
            x, y = res
            return (g * y, g * x)
# output
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    if jax.__version_info__ >= (0, 9):
        def vjp_bwd_retval(self, res, g):
            x, y = res
            return (g * y, g * x)
    else:
        def vjp_bwd_retval(self, res, g):
            x, y = res
            return (g * y, g * x)
# findings
# 10 note HJX001 Mul: renamed to `vjp_bwd_retval` in each arm of the `if`, not given accumulators (--strategy accum): one form for every arm
