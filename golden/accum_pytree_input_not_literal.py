# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class DictMul(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = (avals,)
        self.out_aval = avals["a"]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g):
        cts = {"a": g * res["b"], "b": g * res["a"]}
        return (cts,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class DictMul(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = (avals,)
        self.out_aval = avals["a"]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g, xs_acc):
        cts = {"a": g * res["b"], "b": g * res["a"]}
        jax.tree.map(lambda acc, ct: acc.accum(ct), xs_acc, cts)
        return None
