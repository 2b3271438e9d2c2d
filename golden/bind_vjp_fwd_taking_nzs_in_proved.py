# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g, g)


def _expand(self, x, y):
    return x + y


def _fwd(self, nzs_in, x, y):
    return x + y, None


Made = type("Made", (VJPHiPrimitive,), {"expand": _expand, "vjp_fwd": _fwd, "vjp_bwd": _bwd})


class Assigned(VJPHiPrimitive):
    expand = _expand
    vjp_fwd = _fwd

    def vjp_bwd(self, res, g):
        return (g, g)


class After(VJPHiPrimitive):
    def expand(self, x, y):
        return x + y

    def vjp_bwd(self, res, g):
        return (g, g)


After.vjp_fwd = _fwd
# output
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g, g)


def _expand(self, x, y):
    return x + y


def _fwd(self, nzs_in, x, y):
    return x + y, None


Made = type("Made", (VJPHiPrimitive,), {"expand": _expand, "vjp_fwd": _fwd, "vjp_bwd_retval": _bwd})


class Assigned(VJPHiPrimitive):
    expand = _expand
    vjp_fwd = _fwd

    def vjp_bwd_retval(self, res, g):
        return (g, g)


class After(VJPHiPrimitive):
    def expand(self, x, y):
        return x + y

    def vjp_bwd_retval(self, res, g):
        return (g, g)


After.vjp_fwd = _fwd
# findings
