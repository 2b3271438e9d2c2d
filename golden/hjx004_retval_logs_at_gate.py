# flags: --target-jax 0.11.2 --select HJX004
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):
    vjp_bwd_retval_logs = True

    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}
# output
from jax.experimental.hijax import VJPHiPrimitive

class Op(VJPHiPrimitive):

    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}
