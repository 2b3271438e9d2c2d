# flags: --target-jax 0.12
import jax.experimental.hijax as hjx
from jax.experimental.hijax import MutableHiType, VJPHiPrimitive


class BoxTy(MutableHiType):
    def make(self, qdd):
        return hjx.AvalQDD(self, qdd)


class AvalQDD:  # a class of the project's own: not jax's
    pass


def mutable(ty):
    return isinstance(ty, hjx.AvalMutableQDD)
# output
import jax.experimental.hijax as hjx
from jax.experimental.hijax import MutableHiType, HiPrim


class BoxTy(MutableHiType):
    def make(self, qdd):
        return hjx.AvalQDD(self, qdd)


class AvalQDD:  # a class of the project's own: not jax's
    pass


def mutable(ty):
    return isinstance(ty, hjx.AvalMutableQDD)
# findings
# 2 error HJX013 `MutableHiType` was removed from jax's hijax module in jax 0.11.1, with its mutable types (quasi-dynamic data); nothing replaces it: keep this code on jax 0.11.0, or port it to immutable `HiType`s by hand
# 5 error HJX013 `MutableHiType` was removed from jax's hijax module in jax 0.11.1, with its mutable types (quasi-dynamic data); nothing replaces it: keep this code on jax 0.11.0, or port it to immutable `HiType`s by hand
# 7 error HJX013 `AvalQDD` was removed from jax's hijax module in jax 0.11.1, with its mutable types (quasi-dynamic data); nothing replaces it: keep this code on jax 0.11.0, or port it to immutable `HiType`s by hand
# 15 error HJX013 `AvalMutableQDD` was removed from jax's hijax module in jax 0.11.1, with its mutable types (quasi-dynamic data); nothing replaces it: keep this code on jax 0.11.0, or port it to immutable `HiType`s by hand
