# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Traced(HiPrim):
    def vjp_bwd(self, res, g, *arg_accums):
        _, logs = self.inner(res, g, *arg_accums)
        return logs

    def overridden(self):
        return type(self).vjp_bwd is not HiPrim.vjp_bwd
# findings
# 5 note HJX001 Traced: `vjp_bwd` hands its accumulators to a call (line 6) on every path to the return at line 7, and returns a value that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and left as written; if it is cotangents, return None instead
