# flags: --target-jax 0.10.2
# An ``else`` holding only an ``if`` goes on with the chain: each arm binds one rule
from jax.experimental.hijax import VJPHiPrimitive

OLD_JAX = True
SLOW = False


class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2.0 * x, None

    if OLD_JAX:
        def vjp_bwd(self, res, g):
            return (2.0 * g,)
    else:
        if SLOW:
            def vjp_bwd_retval(self, res, g):
                return (g + g,)
        else:
            def vjp_bwd(self, res, g):
                return (g * 2.0,)
# output
# An ``else`` holding only an ``if`` goes on with the chain: each arm binds one rule
from jax.experimental.hijax import VJPHiPrimitive

OLD_JAX = True
SLOW = False


class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2.0 * x, None

    if OLD_JAX:
        def vjp_bwd_retval(self, res, g):
            return (2.0 * g,)
    else:
        if SLOW:
            def vjp_bwd_retval(self, res, g):
                return (g + g,)
        else:
            def vjp_bwd_retval(self, res, g):
                return (g * 2.0,)
