# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


class Beside(VJPHiPrimitive):
    label = "beside"; vjp_bwd = _bwd


class First(VJPHiPrimitive):
    vjp_bwd = _bwd; label = "first"


class OneLine(VJPHiPrimitive): vjp_bwd = _bwd


class OneLineBeside(VJPHiPrimitive): label = "one"; vjp_bwd = _bwd
# output
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


class Beside(VJPHiPrimitive):
    label = "beside"; vjp_bwd_retval = _bwd


class First(VJPHiPrimitive):
    vjp_bwd_retval = _bwd; label = "first"


class OneLine(VJPHiPrimitive): vjp_bwd_retval = _bwd


class OneLineBeside(VJPHiPrimitive): label = "one"; vjp_bwd_retval = _bwd
