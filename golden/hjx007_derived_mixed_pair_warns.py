# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_linearized, vjp_fwd_from_jvp


class Mixed(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_linearized
# findings
# 4 error HJX007 Mixed: `vjp_fwd = vjp_fwd_from_jvp` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
# 4 error HJX007 Mixed: `vjp_bwd_retval = transpose_linearized` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
# 1 error HJX015 `transpose_linearized` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
# 1 error HJX015 `vjp_fwd_from_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
