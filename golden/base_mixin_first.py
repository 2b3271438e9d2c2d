from jax.experimental.hijax import VJPHiPrimitive


class ReprMixin:
    def __repr__(self):
        return type(self).__name__


class Mul(ReprMixin, VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
from jax.experimental.hijax import VJPHiPrimitive


class ReprMixin:
    def __repr__(self):
        return type(self).__name__


class Mul(ReprMixin, VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
