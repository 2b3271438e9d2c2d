# flags: --target-jax 0.12
# At 0.11 the star import rebinds VJPHiPrimitive over `object`; at 0.12 it no longer does.
VJPHiPrimitive = object
from jax.experimental.hijax import *


class Op(VJPHiPrimitive):
    pass
# findings
# 3 error HJX003 `VJPHiPrimitive` comes from a star import and is bound here besides, where jax's star import binds it over what ran before: left as written; import it by name, after the star imports: `from jax.experimental.hijax import HiPrim as VJPHiPrimitive`
