# flags: --target-jax 0.10
import jax
from jax.experimental import hijax

Base = hijax.VJPHiPrimitive if jax.__version_info__ < (0, 11, 2) else hijax.HiPrim


class Op(Base):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    if jax.__version_info__ >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 2.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 2.0,)
# findings
# 15 error HJX001 Op: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
