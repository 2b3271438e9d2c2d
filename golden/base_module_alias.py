import jax.experimental.hijax as hjx


class Mul(hjx.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
import jax.experimental.hijax as hjx


class Mul(hjx.VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
