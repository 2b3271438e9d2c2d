# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp


class Sin(VJPHiPrimitive):
    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


Sin.vjp_fwd = vjp_fwd_from_jvp
Sin.vjp_bwd_retval = transpose_jvp
# findings
# 1 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 1 error HJX015 `vjp_fwd_from_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 9 error HJX015 `vjp_fwd_from_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 10 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
