from jax.experimental.hijax import VJPHiPrimitive as HiPrim


class Mul(HiPrim):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
from jax.experimental.hijax import VJPHiPrimitive as HiPrim


class Mul(HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
