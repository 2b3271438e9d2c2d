# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class DictIn(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = ({"a": avals[0], "b": avals[1]},)
        self.out_aval = avals[0]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g):
        return ({"a": g * res["b"], "b": g * res["a"]},)
# output
from jax.experimental.hijax import VJPHiPrimitive

class DictIn(VJPHiPrimitive):
    def __init__(self, avals):
        self.in_avals = ({"a": avals[0], "b": avals[1]},)
        self.out_aval = avals[0]
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g, xs_acc):
        xs_acc["a"].accum(g * res["b"])
        xs_acc["b"].accum(g * res["a"])
        return None
