# flags: --target-jax 0.8.2
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * x, x

    def vjp_bwd_retval(self, res, g):
        return (2 * res * g,)
