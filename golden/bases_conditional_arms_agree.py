from jax.experimental.hijax import VJPHiPrimitive

FLAG = True


class Base(VJPHiPrimitive):
    pass


class Other(VJPHiPrimitive):
    pass


class Sub(Base if FLAG else Other):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# output
from jax.experimental.hijax import VJPHiPrimitive

FLAG = True


class Base(VJPHiPrimitive):
    pass


class Other(VJPHiPrimitive):
    pass


class Sub(Base if FLAG else Other):
    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)
