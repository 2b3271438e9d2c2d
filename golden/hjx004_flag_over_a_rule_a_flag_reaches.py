# flags: --target-jax 0.12 --select HJX004
from jax.experimental.hijax import VJPHiPrimitive


class Grand(VJPHiPrimitive):
    vjp_bwd_retval_logs = True


class Base(Grand):
    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}


class Op(Base):  # the flag again, over a rule Grand's flag makes vjp_bwd_retval_logs: dropped
    vjp_bwd_retval_logs = True
# output
from jax.experimental.hijax import VJPHiPrimitive


class Grand(VJPHiPrimitive):
    pass


class Base(Grand):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}


class Op(Base):  # the flag again, over a rule Grand's flag makes vjp_bwd_retval_logs: dropped
    pass
