# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

__all__ = ["VJPHiPrimitive", "Op"]


class Op(VJPHiPrimitive):
    pass
# output
from jax.experimental.hijax import HiPrim as VJPHiPrimitive

__all__ = ["VJPHiPrimitive", "Op"]


class Op(VJPHiPrimitive):
    pass
