from jax.experimental.hijax import VJPHiPrimitive

class First(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, None)
# output
from jax.experimental.hijax import VJPHiPrimitive

class First(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, None)
