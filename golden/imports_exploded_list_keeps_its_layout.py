# flags: --target-jax 0.11.1
from jax.experimental.hijax import (
    HiType,  # the type
    VJPHiPrimitive,
    transpose_jvp,
    vjp_fwd_from_jvp,
)


class P(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp
# output
from jax.experimental.hijax import (
    HiType,  # the type
    VJPHiPrimitive,
    vjp_from_jvp,
)


class P(VJPHiPrimitive):
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp
