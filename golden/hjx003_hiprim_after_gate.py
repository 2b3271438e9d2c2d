# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

from jax.experimental import hijax as hx


class Op(VJPHiPrimitive):
    def check(self, other):
        return isinstance(other, VJPHiPrimitive)


class Other(hx.VJPHiPrimitive):
    pass
# output
from jax.experimental.hijax import HiPrim

from jax.experimental import hijax as hx


class Op(HiPrim):
    def check(self, other):
        return isinstance(other, HiPrim)


class Other(hx.HiPrim):
    pass
