# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)


class Moved(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
# output
from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_fwd(self, nzs_in, x, y):
        return x + y, None

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)


class Moved(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
# findings
# 4 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
