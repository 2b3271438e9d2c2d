from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def vjp_bwd(self, res, g):
        return (g,)

    def vjp_bwd(self, res, g):
        return (2.0 * g,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax


class Op(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def vjp_bwd(self, res, g):
        return (g,)

    def vjp_bwd(self, res, g, *arg_accums):
        jax.tree.map(lambda acc, ct: acc.accum(ct), arg_accums, (2.0 * g,))
        return None
