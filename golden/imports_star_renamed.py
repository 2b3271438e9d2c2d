# flags: --target-jax 0.12
# jax's hijax module has no __all__: its star import binds the bases, old and new.
from jax.experimental.hijax import *


class Sq(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (2 * res * g,)


def check(op):
    return isinstance(op, VJPHiPrimitive)
# output
# jax's hijax module has no __all__: its star import binds the bases, old and new.
from jax.experimental.hijax import *


class Sq(HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (2 * res * g,)


def check(op):
    return isinstance(op, HiPrim)
