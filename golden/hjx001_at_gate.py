# flags: --target-jax 0.8.1 --select HJX001
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
