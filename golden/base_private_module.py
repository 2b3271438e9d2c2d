from jax._src import hijax


class Mul(hijax.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
from jax._src import hijax


class Mul(hijax.VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
