# flags: --target-jax 0.12
from jax.experimental import hijax
from jax.experimental.hijax import VJPHiPrimitive


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)


def is_primitive(op):
    return isinstance(op, hijax.VJPHiPrimitive)
# output
from jax.experimental import hijax
from jax.experimental.hijax import HiPrim as VJPHiPrimitive


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)


def is_primitive(op):
    return isinstance(op, hijax.HiPrim)
# findings
# 5 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
