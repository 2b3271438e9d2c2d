# flags: --target-jax 0.12 --strategy accum
# The constant is bound after the class: its body finds no such name when it runs (a
# NameError), so which arm runs is not decided from it: an error, left as written.
import jax
from jax.experimental.hijax import HiPrim

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


_NEW_API = (0, 8, 1)
# findings
# 14 error HJX001 Op: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
