# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

# An earlier run (over one file, or --changed-since) renamed the base's rule;
# the subclass and its call were left: the call now reaches jax's accumulator
# rule, with no accumulators. Both are completed, the call included.


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
# output
from jax.experimental.hijax import VJPHiPrimitive

# An earlier run (over one file, or --changed-since) renamed the base's rule;
# the subclass and its call were left: the call now reaches jax's accumulator
# rule, with no accumulators. Both are completed, the call included.


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
# 18 note HJX001 Twice: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): a class above it defines `vjp_bwd_retval`, or binds a value rule it renames, which it overrides
