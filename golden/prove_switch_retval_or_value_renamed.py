# A class body that switches between `vjp_bwd_retval` and a value `vjp_bwd`: no path
# binds both, and renaming the value arm makes every arm bind the value rule under
# the name the target reads (right whichever arm runs).
import jax
from jax.experimental.hijax import VJPHiPrimitive

_FAST = True


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    if _FAST:
        def vjp_bwd_retval(self, res, g):
            return (2 * g,)
    else:
        def vjp_bwd(self, res, g):
            return (2 * g,)


class Gated(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 3 * x, None

    if jax.__version_info__ >= (0, 8, 1):
        def vjp_bwd_retval(self, res, g):
            return (3 * g,)
    else:
        def vjp_bwd(self, res, g):
            return (3 * g,)
# output
# A class body that switches between `vjp_bwd_retval` and a value `vjp_bwd`: no path
# binds both, and renaming the value arm makes every arm bind the value rule under
# the name the target reads (right whichever arm runs).
import jax
from jax.experimental.hijax import VJPHiPrimitive

_FAST = True


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    if _FAST:
        def vjp_bwd_retval(self, res, g):
            return (2 * g,)
    else:
        def vjp_bwd_retval(self, res, g):
            return (2 * g,)


class Gated(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 3 * x, None

    if jax.__version_info__ >= (0, 8, 1):
        def vjp_bwd_retval(self, res, g):
            return (3 * g,)
    else:
        def vjp_bwd_retval(self, res, g):
            return (3 * g,)
# findings
