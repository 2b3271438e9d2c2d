# flags: --target-jax 0.11.1
# jax 0.11.0's derived-rule helpers are paired whatever the class body's layout:
# beside another statement, or as a one-line body.
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp


class Beside(VJPHiPrimitive):
    name = "beside"; vjp_fwd = vjp_fwd_from_jvp  # the first half
    vjp_bwd_retval = transpose_jvp; label = "second"


class OneLine(VJPHiPrimitive): vjp_fwd = vjp_fwd_from_jvp; vjp_bwd_retval = transpose_jvp
# output
# jax 0.11.0's derived-rule helpers are paired whatever the class body's layout:
# beside another statement, or as a one-line body.
from jax.experimental.hijax import vjp_from_jvp, VJPHiPrimitive


class Beside(VJPHiPrimitive):
    name = "beside"; vjp_fwd, vjp_bwd_retval = vjp_from_jvp  # the first half
    label = "second"


class OneLine(VJPHiPrimitive): vjp_fwd, vjp_bwd_retval = vjp_from_jvp
