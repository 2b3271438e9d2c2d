# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass


from myproject.prims import HiPrim  # the project's own class of that name
# output
from jax.experimental.hijax import HiPrim as VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass


from myproject.prims import HiPrim  # the project's own class of that name
