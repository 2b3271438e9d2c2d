from functools import partialmethod

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, scale, res, g):
    return (scale * 2 * res * g,)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd = partialmethod(_bwd, scale=2.0)
# findings
# 14 error HJX001 Sq: `vjp_bwd` is bound to `partialmethod(_bwd, scale=2.0)`, whose form is not visible: check it by hand
