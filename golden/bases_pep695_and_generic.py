from typing import Generic, TypeVar

from jax.experimental.hijax import VJPHiPrimitive

T = TypeVar("T")


class Op(VJPHiPrimitive, Generic[T]):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)


class Op2[U](VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# output
from typing import Generic, TypeVar

from jax.experimental.hijax import VJPHiPrimitive

T = TypeVar("T")


class Op(VJPHiPrimitive, Generic[T]):
    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)


class Op2[U](VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)
