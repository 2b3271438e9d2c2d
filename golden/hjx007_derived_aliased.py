# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp as tj, vjp_fwd_from_jvp as fwd
from jax.experimental.hijax import apply_derived_linearization as linearized, linearize_from_jvp as lfj


class Op(VJPHiPrimitive):
    vjp_fwd = fwd
    vjp_bwd_retval = tj
    lin = lfj
    linearized = linearized

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


class Kept(VJPHiPrimitive):
    lin = lfj  # the helper also used alone: its import stays, under its name
# output
from jax.experimental.hijax import linearize_from_jvp, vjp_from_jvp, VJPHiPrimitive
from jax.experimental.hijax import linearize_from_jvp as lfj


class Op(VJPHiPrimitive):
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp
    lin, linearized = linearize_from_jvp

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


class Kept(VJPHiPrimitive):
    lin = lfj  # the helper also used alone: its import stays, under its name
# findings
# 15 error HJX007 Kept: `lin = linearize_from_jvp` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
