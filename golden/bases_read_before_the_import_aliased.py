# flags: --target-jax 0.12
# A read before the import: the import keeps the old name bound.
try:
    EARLY = VJPHiPrimitive
except NameError:
    EARLY = None

from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
# output
# A read before the import: the import keeps the old name bound.
try:
    EARLY = VJPHiPrimitive
except NameError:
    EARLY = None

from jax.experimental.hijax import HiPrim as VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
# findings
