# flags: --target-jax 0.11.0
import jax.experimental.hijax as hjx
from jax.experimental.hijax import MutableHiType, VJPHiPrimitive


class BoxTy(MutableHiType):
    def make(self, qdd):
        return hjx.AvalQDD(self, qdd)


class AvalQDD:  # a class of the project's own: not jax's
    pass


def mutable(ty):
    return isinstance(ty, hjx.AvalMutableQDD)
