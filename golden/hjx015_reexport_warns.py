# flags: --target-jax 0.11.1
"""A compatibility module with no primitive: it re-exports 0.11.0's helpers."""
from jax.experimental.hijax import (
    jvp_from_lin,
    linearize_from_jvp,
    transpose_jvp,
    vjp_fwd_from_jvp,
)
from jax.experimental.hijax import transpose_linearized as transpose_lin

__all__ = ["jvp_from_lin", "linearize_from_jvp", "transpose_jvp", "vjp_fwd_from_jvp", "transpose_lin"]
# findings
# 5 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 6 error HJX015 `vjp_fwd_from_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 8 error HJX015 `transpose_linearized` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
