# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


class LoggingBase(VJPHiPrimitive):
    vjp_bwd_retval_logs = True


class Annotated(VJPHiPrimitive):
    vjp_bwd_retval_logs: bool = True


class Chained(VJPHiPrimitive):
    vjp_bwd_retval_logs = debug_logging = True


class Op(LoggingBase):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}


class Quiet(LoggingBase):
    vjp_bwd_retval_logs = False

    def vjp_bwd_retval(self, res, g):
        return (g,)


class Op2(Annotated):
    def vjp_bwd_retval(self, res, g):
        return (g,), {}


class Op3(Chained):
    def vjp_bwd_retval(self, res, g):
        return (g,), {"debug": self.debug_logging}
# output
from jax.experimental.hijax import HiPrim


class LoggingBase(HiPrim):
    pass


class Annotated(HiPrim):
    pass


class Chained(HiPrim):
    debug_logging = True


class Op(LoggingBase):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}


class Quiet(LoggingBase):

    def vjp_bwd_retval(self, res, g):
        return (g,)


class Op2(Annotated):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {}


class Op3(Chained):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"debug": self.debug_logging}
