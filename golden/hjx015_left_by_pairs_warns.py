# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp, vjp_fwd_from_lin


class Sin(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


class Lone(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_lin  # HJX007 says it has no partner; its import is still an error

    def vjp_bwd_retval(self, res, g):
        return (g,)


BWD = transpose_jvp  # still used here: the import stays, and both are errors
# output
from jax.experimental.hijax import vjp_from_jvp, VJPHiPrimitive, transpose_jvp, vjp_fwd_from_lin


class Sin(VJPHiPrimitive):
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp

    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


class Lone(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_lin  # HJX007 says it has no partner; its import is still an error

    def vjp_bwd_retval(self, res, g):
        return (g,)


BWD = transpose_jvp  # still used here: the import stays, and both are errors
# findings
# 12 error HJX007 Lone: `vjp_fwd = vjp_fwd_from_lin` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand
# 1 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
# 1 error HJX015 `vjp_fwd_from_lin` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_lin` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_lin` in the primitive's class body
# 19 error HJX015 `transpose_jvp` was removed from jax's hijax module in jax 0.11.1 (derived rules come in pairs): import `vjp_from_jvp` instead and write `vjp_fwd, vjp_bwd_retval = vjp_from_jvp` in the primitive's class body
