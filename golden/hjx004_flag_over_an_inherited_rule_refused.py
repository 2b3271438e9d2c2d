# flags: --target-jax 0.12 --select HJX004
from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}


class Op(Base):  # turns logs on for the rule it inherits: with the flag gone, Base's rule reads as cotangents
    vjp_bwd_retval_logs = True
# findings
# 9 error HJX004 Op: sets `vjp_bwd_retval_logs = True` for the `vjp_bwd_retval` it inherits from Base, which does not set it; jax 0.11.2 has no flag: define `vjp_bwd_retval_logs` here (calling that rule), by hand
