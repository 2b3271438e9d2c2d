import functools

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def _bwd(self, sign, res, g):
        return (sign * g,)

    # partialmethod fills `sign`: the bound rule takes (res, g), a value rule
    vjp_bwd = functools.partialmethod(_bwd, 1.0)
# output
import functools

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def _bwd(self, sign, res, g):
        return (sign * g,)

    # partialmethod fills `sign`: the bound rule takes (res, g), a value rule
    vjp_bwd_retval = functools.partialmethod(_bwd, 1.0)
# findings
