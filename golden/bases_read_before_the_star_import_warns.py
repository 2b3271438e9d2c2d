# flags: --target-jax 0.12
# The first read runs before the star import binds the name: renamed, it would find HiPrim.
from jax.experimental.hijax import HiPrim

try:
    EARLY = VJPHiPrimitive
except NameError:
    EARLY = None

from jax.experimental.hijax import *


class Op(VJPHiPrimitive):
    pass
# findings
# 9 error HJX003 `VJPHiPrimitive` comes from a star import and may be read before jax's star import has run (above it, in a function, or with it in an `if`): left as written; import it by name, after the star imports: `from jax.experimental.hijax import HiPrim as VJPHiPrimitive`
