from jax.experimental.hijax import VJPHiPrimitive


def _mul_bwd(self, res, g):
    x, y = res
    return [g * other for other in (y, x)]


def _shared_bwd(self, res, g):
    return [g, g]


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd = _mul_bwd


class Add(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    vjp_bwd = _shared_bwd


GRADS = _shared_bwd(None, None, 1.0)  # used outside rule bindings: a list here must stay a list
# output
from jax.experimental.hijax import VJPHiPrimitive


def _mul_bwd(self, res, g):
    x, y = res
    return tuple(g * other for other in (y, x))


def _shared_bwd(self, res, g):
    return [g, g]


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    vjp_bwd_retval = _mul_bwd


class Add(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    vjp_bwd = _shared_bwd


GRADS = _shared_bwd(None, None, 1.0)  # used outside rule bindings: a list here must stay a list
# findings
# 24 error HJX001 Add: `_shared_bwd` returns a list, which jax refuses as a rule's result, and is used outside rule bindings too: make it return a tuple by hand
