from jax.experimental.hijax import VJPHiPrimitive


def _shared_bwd(self, res, g):
    return (g * res,)


class Tanh(VJPHiPrimitive):
    vjp_bwd = _shared_bwd

    def vjp_fwd(self, nzs_in, x):
        return x, 1.0 - x * x


class Sigmoid(VJPHiPrimitive):
    vjp_bwd = _shared_bwd

    def vjp_fwd(self, nzs_in, x):
        return x, x * (1.0 - x)


class Identity(VJPHiPrimitive):
    vjp_bwd = lambda self, res, g: (g,)
# output
from jax.experimental.hijax import VJPHiPrimitive


def _shared_bwd(self, res, g):
    return (g * res,)


class Tanh(VJPHiPrimitive):
    vjp_bwd_retval = _shared_bwd

    def vjp_fwd(self, nzs_in, x):
        return x, 1.0 - x * x


class Sigmoid(VJPHiPrimitive):
    vjp_bwd_retval = _shared_bwd

    def vjp_fwd(self, nzs_in, x):
        return x, x * (1.0 - x)


class Identity(VJPHiPrimitive):
    vjp_bwd_retval = lambda self, res, g: (g,)
