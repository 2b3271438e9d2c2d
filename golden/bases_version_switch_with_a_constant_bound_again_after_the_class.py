# flags: --target-jax 0.12 --strategy accum
# The class body runs where its statement stands: its gate reads the constant's first
# value, (0, 8, 1); the later binding runs after it. The arm jax 0.12 runs is decided.
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


_NEW_API = (0, 13)
# findings
# 20 note HJX001 Op: `vjp_bwd` runs as an accumulator rule at jax 0.12.0 (line 17), left as written; this arm, for other releases, returns cotangents, which jax accepts only at 0.8.0
