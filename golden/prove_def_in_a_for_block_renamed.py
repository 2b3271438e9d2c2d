# A value `vjp_bwd` defined in a `for` block: each pass binds the same function
# (none: nothing bound); renamed, each pass binds it under the target's name.
from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    for _ in range(1):
        def vjp_bwd(self, res, g):
            return (2 * g,)
# output
# A value `vjp_bwd` defined in a `for` block: each pass binds the same function
# (none: nothing bound); renamed, each pass binds it under the target's name.
from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    for _ in range(1):
        def vjp_bwd_retval(self, res, g):
            return (2 * g,)
# findings
