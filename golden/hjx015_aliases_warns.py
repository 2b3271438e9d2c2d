# flags: --target-jax 0.12
import jax
import jax.experimental.hijax as hjx
from jax._src import hijax as private
from jax._src.hijax import vjp_fwd_from_lin as fwd_from_lin

RULES = {
    "bwd": hjx.transpose_jvp,
    "lin_bwd": private.transpose_linearized,
    "lin_fwd": fwd_from_lin,
    "linearized": jax.experimental.hijax.apply_derived_linearization,
}
# findings
# 4 error HJX015 `vjp_fwd_from_lin` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
# 7 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 8 error HJX015 `transpose_linearized` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
# 9 error HJX015 `vjp_fwd_from_lin` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
# 10 error HJX015 `apply_derived_linearization` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `linearize_from_jvp` instead and write `lin, linearized = linearize_from_jvp` in the primitive's class body
