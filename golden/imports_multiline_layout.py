# flags: --target-jax 0.12
from jax.experimental.hijax import (
    ShapedArray,  # first
    VJPHiPrimitive,  # the base
    register_hitype,
)


class Op(VJPHiPrimitive):
    pass
# output
from jax.experimental.hijax import (
    ShapedArray,  # first
    HiPrim,  # the base
    register_hitype,
)


class Op(HiPrim):
    pass
