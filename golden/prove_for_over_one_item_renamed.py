# `for vjp_bwd in (f,):` over a display of one item runs once, binding f: renamed.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    for vjp_bwd in (_bwd,):
        pass
# output
# `for vjp_bwd in (f,):` over a display of one item runs once, binding f: renamed.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    for vjp_bwd_retval in (_bwd,):
        pass
# findings
