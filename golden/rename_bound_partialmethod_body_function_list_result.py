# flags: --target-jax 0.10
import functools

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x0, x1):
        return 3 * x0 + x1, None

    def _bwd(self, sign, res, g):
        g = sign * g
        cts = [None] * 2
        cts[0] = g * 3
        cts[1] = g * 1
        return cts

    vjp_bwd = functools.partialmethod(_bwd, 1.0)
# output
import functools

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x0, x1):
        return 3 * x0 + x1, None

    def _bwd(self, sign, res, g):
        g = sign * g
        cts = [None] * 2
        cts[0] = g * 3
        cts[1] = g * 1
        return tuple(cts)

    vjp_bwd_retval = functools.partialmethod(_bwd, 1.0)
