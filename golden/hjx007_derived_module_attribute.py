# flags: --target-jax 0.11.1
from jax.experimental import hijax


class Op(hijax.VJPHiPrimitive):
    vjp_fwd = hijax.vjp_fwd_from_jvp
    vjp_bwd_retval = hijax.transpose_jvp
# output
from jax.experimental import hijax


class Op(hijax.VJPHiPrimitive):
    vjp_fwd, vjp_bwd_retval = hijax.vjp_from_jvp
