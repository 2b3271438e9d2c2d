import jax
from jax.experimental import hijax

Base = hijax.VJPHiPrimitive if jax.__version_info__ <= (0, 11, 1) else hijax.HiPrim


class Mul(Base):
    def vjp_bwd(self, res, g):
        return (g, g)
# output
import jax
from jax.experimental import hijax

Base = hijax.VJPHiPrimitive if jax.__version_info__ <= (0, 11, 1) else hijax.HiPrim


class Mul(Base):
    def vjp_bwd_retval(self, res, g):
        return (g, g)
