from functools import partialmethod

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g, x_acc, scale):
    x_acc.accum(scale * 2 * res * g)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd = partialmethod(_bwd, scale=2.0)
# findings
