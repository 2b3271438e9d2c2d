# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_linearized, vjp_fwd_from_jvp


class Mixed(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_linearized
# findings
# 4 error HJX007 Mixed: `vjp_fwd = vjp_fwd_from_jvp` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
# 4 error HJX007 Mixed: `vjp_bwd_retval = transpose_linearized` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
