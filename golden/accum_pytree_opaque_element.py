# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class TupleIn(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = (tuple(avals),)
        self.out_aval = avals[0]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs[0], xs

    def vjp_bwd(self, res, g):
        cts = (g, None)
        return (cts,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class TupleIn(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = (tuple(avals),)
        self.out_aval = avals[0]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs[0], xs

    def vjp_bwd(self, res, g, xs_acc):
        cts = (g, None)
        jax.tree.map(lambda acc, ct: acc.accum(ct), xs_acc, cts)
        return None
