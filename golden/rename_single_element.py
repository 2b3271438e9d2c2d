from jax.experimental.hijax import VJPHiPrimitive

class Neg(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (-g,)


class Neg2(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return -g,
# output
from jax.experimental.hijax import VJPHiPrimitive

class Neg(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (-g,)


class Neg2(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return -g,
