# A chained assignment gives every target the value: `vjp_bwd` renamed, `_alias` kept.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _alias = _bwd
# output
# A chained assignment gives every target the value: `vjp_bwd` renamed, `_alias` kept.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd_retval = _alias = _bwd
# findings
