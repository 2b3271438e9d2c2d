# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive as HiPrim
from jax.experimental.hijax import VJPHiPrimitive as Base


class Op(HiPrim):
    pass


class Op2(Base):
    pass
# output
from jax.experimental.hijax import HiPrim
from jax.experimental.hijax import HiPrim as Base


class Op(HiPrim):
    pass


class Op2(Base):
    pass
