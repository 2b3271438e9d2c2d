import functools

from jax.experimental.hijax import VJPHiPrimitive


def _scaled_bwd(self, res, g, scale):
    return (scale * 2 * res * g,)


def _shifted_bwd(self, shift, res, g, scale, extra=None):
    return (scale * 2 * res * g + shift,)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd = functools.partialmethod(_scaled_bwd, scale=2.0)


class Shifted(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd = functools.partialmethod(_shifted_bwd, 0.0, scale=2.0)
# output
import functools

from jax.experimental.hijax import VJPHiPrimitive


def _scaled_bwd(self, res, g, scale):
    return (scale * 2 * res * g,)


def _shifted_bwd(self, shift, res, g, scale, extra=None):
    return (scale * 2 * res * g + shift,)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd_retval = functools.partialmethod(_scaled_bwd, scale=2.0)


class Shifted(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd_retval = functools.partialmethod(_shifted_bwd, 0.0, scale=2.0)
# findings
