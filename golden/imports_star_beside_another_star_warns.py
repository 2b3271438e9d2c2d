# flags: --target-jax 0.12
# The base may come from either star import: the name is left, with an error.
from jax.experimental.hijax import *
from compat import *


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x
# findings
# 3 error HJX003 `VJPHiPrimitive` comes from a star import and may come from this other star import as well as from jax's: left as written; import it by name, after the star imports: `from jax.experimental.hijax import HiPrim as VJPHiPrimitive`
