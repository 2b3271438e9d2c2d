from jax.experimental.hijax import VJPHiPrimitive


class Plain(VJPHiPrimitive):
    @staticmethod
    def vjp_bwd(res, g):
        return (g * res,)


class Odd(VJPHiPrimitive):
    @staticmethod
    def vjp_bwd(res, g, x_acc):
        x_acc.accum(g)
        return (g,)
# output
from jax.experimental.hijax import VJPHiPrimitive


class Plain(VJPHiPrimitive):
    @staticmethod
    def vjp_bwd_retval(res, g):
        return (g * res,)


class Odd(VJPHiPrimitive):
    @staticmethod
    def vjp_bwd(res, g, x_acc):
        x_acc.accum(g)
        return (g,)
