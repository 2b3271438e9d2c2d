# flags: --target-jax 0.12
import jax
from jax.experimental import hijax

Base = hijax.VJPHiPrimitive if jax.__version_info__ <= (0, 11, 1) else hijax.HiPrim

try:
    from jax.experimental.hijax import HiPrim
except ImportError:
    from jax.experimental.hijax import VJPHiPrimitive as HiPrim


class Op(Base):
    pass
