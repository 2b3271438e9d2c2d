from jax.experimental.hijax import VJPHiPrimitive

class Pick(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, None) if res else (None, g)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Pick(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, None) if res else (None, g)
