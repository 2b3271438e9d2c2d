# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class LogsMixin:
    vjp_bwd_retval_logs = True


class Op(LogsMixin, HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}
# output
from jax.experimental.hijax import HiPrim


class LogsMixin:
    vjp_bwd_retval_logs = True


class Op(LogsMixin, HiPrim):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}
