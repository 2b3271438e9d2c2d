# `vjp_bwd_retval` defined outside the `if` whose arm defines a value `vjp_bwd`: the
# path through that arm binds both, and a rename would bind `vjp_bwd_retval` twice
# (which one is kept depends on the order): still refused.
from jax.experimental.hijax import VJPHiPrimitive

_FAST = True


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    def vjp_bwd_retval(self, res, g):
        return (2 * g,)

    if _FAST:
        def vjp_bwd(self, res, g):
            return (2 * g,)
# findings
# 17 error HJX001 Lin: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
