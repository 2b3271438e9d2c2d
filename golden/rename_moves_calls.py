from jax.experimental.hijax import VJPHiPrimitive

class Base(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)

    def twice(self, res, g):
        return self.vjp_bwd(res, g)


class Child(Base):
    def vjp_bwd(self, res, g):
        (ct,) = super().vjp_bwd(res, g)
        return (2 * ct,)


def call_directly(prim, res, g):
    return Base.vjp_bwd(prim, res, g)
# output
from jax.experimental.hijax import VJPHiPrimitive

class Base(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g,)

    def twice(self, res, g):
        return self.vjp_bwd_retval(res, g)


class Child(Base):
    def vjp_bwd_retval(self, res, g):
        (ct,) = super().vjp_bwd_retval(res, g)
        return (2 * ct,)


def call_directly(prim, res, g):
    return Base.vjp_bwd_retval(prim, res, g)
