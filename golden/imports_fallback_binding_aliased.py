# flags: --target-jax 0.12
try:
    from jax.experimental.hijax import VJPHiPrimitive
except ImportError:
    VJPHiPrimitive = object


class Op(VJPHiPrimitive):
    pass
# output
try:
    from jax.experimental.hijax import HiPrim as VJPHiPrimitive
except ImportError:
    VJPHiPrimitive = object


class Op(VJPHiPrimitive):
    pass
