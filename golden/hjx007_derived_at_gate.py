# flags: --target-jax 0.11.1
from jax.experimental.hijax import (
    VJPHiPrimitive,
    apply_derived_linearization,
    linearize_from_jvp,
    transpose_jvp,
    vjp_fwd_from_jvp,
)


class Op(VJPHiPrimitive):
    lin = linearize_from_jvp
    linearized = apply_derived_linearization
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]
# output
from jax.experimental.hijax import (
    VJPHiPrimitive,
    linearize_from_jvp,
    vjp_from_jvp,
)


class Op(VJPHiPrimitive):
    lin, linearized = linearize_from_jvp
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]
