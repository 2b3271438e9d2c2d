# flags: --target-jax 0.12
from jax.experimental import hijax

Base = getattr(hijax, "HiPrim", None) or hijax.VJPHiPrimitive


class Op(Base):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd(self, res, g):
        return (g,)
# output
from jax.experimental import hijax

Base = getattr(hijax, "HiPrim", None) or hijax.VJPHiPrimitive


class Op(Base):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd_retval(self, res, g):
        return (g,)
