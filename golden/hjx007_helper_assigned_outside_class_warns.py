# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive, transpose_jvp, vjp_fwd_from_jvp


class Sin(VJPHiPrimitive):
    def jvp(self, primals, tangents):
        return primals[0], tangents[0]


Sin.vjp_fwd = vjp_fwd_from_jvp
Sin.vjp_bwd_retval = transpose_jvp
# findings
# 9 error HJX007 `vjp_fwd_from_jvp` is used outside a class body's `attribute = helper` line; jax 0.11.1 removed it (derived rules come in pairs: `vjp_fwd, vjp_bwd_retval = vjp_from_jvp`): port it by hand
# 10 error HJX007 `transpose_jvp` is used outside a class body's `attribute = helper` line; jax 0.11.1 removed it (derived rules come in pairs: `vjp_fwd, vjp_bwd_retval = vjp_from_jvp`): port it by hand
