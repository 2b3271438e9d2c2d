# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd_retval(self, res, g):
        gx, gy = super().vjp_bwd_retval(res, g)
        return 2 * gx, 2 * gy
# findings
# 7 note HJX001 Mul: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 14 may call this rule, and is renamed with it
# 13 note HJX001 Twice: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 14 may call the value rule of Mul, and is renamed with it
