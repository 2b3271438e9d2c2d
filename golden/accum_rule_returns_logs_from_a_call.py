# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Remat(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, primals_rem, outgrad, *arg_accums):
        bwd = primals_rem(outgrad)
        _, logs = bwd.with_logs.with_refs(*arg_accums)(outgrad)
        return logs
# findings
# 8 note HJX001 Remat: `vjp_bwd` hands its accumulators to a call (line 10) on every path to the return at line 11, and returns a value that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and left as written; if it is cotangents, return None instead
