# flags: --target-jax 0.11.1
import jax.experimental.hijax as hjx

BWD = hjx.transpose_jvp


def forward(prim, nzs_in, *args):
    return hjx.vjp_fwd_from_jvp(prim, nzs_in, *args)


def linearized(prim, res, *tangents):
    return hjx.apply_derived_linearization(prim, res, *tangents)
# findings
# 3 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 7 error HJX015 `vjp_fwd_from_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 11 error HJX015 `apply_derived_linearization` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `linearize_from_jvp` instead and write `lin, linearized = linearize_from_jvp` in the primitive's class body
