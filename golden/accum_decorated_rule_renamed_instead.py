# flags: --strategy accum
import functools

from jax.experimental.hijax import VJPHiPrimitive


def clipped(rule):
    """Works on the returned cotangents: accumulator writes inside the rule would skip it."""
    @functools.wraps(rule)
    def wrapper(self, res, g):
        return tuple(None if ct is None else ct.clip(-1, 1) for ct in rule(self, res, g))
    return wrapper


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    @clipped
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
# output
import functools

from jax.experimental.hijax import VJPHiPrimitive


def clipped(rule):
    """Works on the returned cotangents: accumulator writes inside the rule would skip it."""
    @functools.wraps(rule)
    def wrapper(self, res, g):
        return tuple(None if ct is None else ct.clip(-1, 1) for ct in rule(self, res, g))
    return wrapper


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    @clipped
    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
# findings
# 19 note HJX001 Mul: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): `@clipped` wraps it, and may work on the cotangents it returns
