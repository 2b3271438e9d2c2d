# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g, g)


def _expand(self, x, y):
    return x + y


def _fwd(self, x, y):
    return x + y, None


def _fwd_twice(self, nzs_in, x, y):
    return x + y, None


_fwd_twice = _fwd


Made = type("Made", (VJPHiPrimitive,), {"expand": _expand, "vjp_fwd": _fwd, "vjp_bwd": _bwd})


class Assigned(VJPHiPrimitive):
    expand = _expand
    vjp_fwd = _fwd_twice

    def vjp_bwd(self, res, g):
        return (g, g)
# findings
# 28 error HJX016 Assigned: `vjp_fwd` is bound by an assignment (`vjp_fwd = _fwd_twice`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
# 23 error HJX016 a class made by a call: `vjp_fwd` is bound by a type() member (`Made = type("Made", (VJPHiPrimitive,), {"expand": _expand, "vjp_fwd...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
