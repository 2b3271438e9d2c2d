import functools

from jax.experimental.hijax import VJPHiPrimitive


def _scaled_bwd(self, res, g, scale=1.0):
    x, y = res
    return (scale * g * y, scale * g * x)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd = functools.partialmethod(_scaled_bwd, scale=2.0)


class Plain(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd = _scaled_bwd
# output
import functools

from jax.experimental.hijax import VJPHiPrimitive


def _scaled_bwd(self, res, g, scale=1.0):
    x, y = res
    return (scale * g * y, scale * g * x)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd_retval = functools.partialmethod(_scaled_bwd, scale=2.0)


class Plain(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd_retval = _scaled_bwd
# findings
