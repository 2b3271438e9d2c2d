# flags: --target-jax 0.12
try:
    from jax.experimental.hijax import VJPHiPrimitive
except ImportError:
    raise


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)


class Moved(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# output
try:
    from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive
except ImportError:
    raise


class Kept(VJPHiPrimitive):  # hijax-migrate: skip
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)


class Moved(HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g,)
# findings
# 7 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
