# flags: --target-jax 0.12
from jax.experimental import hijax
from jax.experimental.hijax import VJPHiPrimitive

Base = hijax.HiPrim if hasattr(hijax, "HiPrim") else VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
# output
from jax.experimental import hijax
from jax.experimental.hijax import HiPrim as VJPHiPrimitive

Base = hijax.HiPrim if hasattr(hijax, "HiPrim") else VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
