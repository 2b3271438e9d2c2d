# flags: --target-jax 0.12
# jax's version read through an alias (`from jax import __version_info__ as jv`) is
# the version still: the arm jax 0.12 runs is known, as for `jax.__version_info__`.
import jax
from jax import __version_info__ as jv
from jax.experimental import hijax

Base = hijax.VJPHiPrimitive if jax.__version_info__ < (0, 11, 2) else hijax.HiPrim


class Op(Base):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    if jv >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 2.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 2.0,)
# findings
# 21 note HJX001 Op: `vjp_bwd` runs as an accumulator rule at jax 0.12.0 (line 18), left as written; this arm, for other releases, returns cotangents, which jax accepts only at 0.8.0
