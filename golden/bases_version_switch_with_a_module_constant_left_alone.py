# flags: --target-jax 0.12 --strategy accum
import jax
from jax.experimental.hijax import HiPrim

_NEW_API = (0, 8, 1)


class Op(HiPrim):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    if not jax.__version_info__ < _NEW_API:
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 2.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 2.0,)
# findings
# 18 note HJX001 Op: `vjp_bwd` runs as an accumulator rule at jax 0.12.0 (line 15), left as written; this arm, for other releases, returns cotangents, which jax accepts only at 0.8.0
