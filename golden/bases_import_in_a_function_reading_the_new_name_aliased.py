# flags: --target-jax 0.12
# Renamed, the import would make HiPrim local to the function, and its first read fail.
from jax.experimental.hijax import HiPrim


def bases():
    first = HiPrim
    from jax.experimental.hijax import VJPHiPrimitive

    return first, VJPHiPrimitive
# output
# Renamed, the import would make HiPrim local to the function, and its first read fail.
from jax.experimental.hijax import HiPrim


def bases():
    first = HiPrim
    from jax.experimental.hijax import HiPrim as VJPHiPrimitive

    return first, VJPHiPrimitive
# findings
