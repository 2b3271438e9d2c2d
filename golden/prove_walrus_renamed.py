# `(vjp_bwd := f)` as a statement of the class body binds f, as `vjp_bwd = f` does:
# the target renamed binds the same value rule under the target's name.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    (vjp_bwd := _bwd)
# output
# `(vjp_bwd := f)` as a statement of the class body binds f, as `vjp_bwd = f` does:
# the target renamed binds the same value rule under the target's name.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    (vjp_bwd_retval := _bwd)
# findings
