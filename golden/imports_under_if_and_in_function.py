# flags: --target-jax 0.12
import jax

if jax.__version_info__ >= (0, 9):
    from jax.experimental.hijax import VJPHiPrimitive


def make():
    from jax._src.hijax import VJPHiPrimitive as Base

    class Local(Base):
        pass

    return Local


class Op(VJPHiPrimitive):
    pass
# output
import jax

if jax.__version_info__ >= (0, 9):
    from jax.experimental.hijax import HiPrim


def make():
    from jax._src.hijax import HiPrim as Base

    class Local(Base):
        pass

    return Local


class Op(HiPrim):
    pass
