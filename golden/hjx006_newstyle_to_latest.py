# flags: --target-jax 0.12
from jax.experimental.hijax import NewstyleHiPrimitive


class Mul(NewstyleHiPrimitive):
    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
# output
from jax.experimental.hijax import HiPrim


class Mul(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
