from jax.experimental.hijax import VJPHiPrimitive


class Scale(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, x):
        return 2.0 * x, None

    def vjp_bwd(self, res, g):
        return (2.0 * g,)


class Triple(Scale):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(3.0 * g)


class AccumBase(VJPHiPrimitive):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)


class ValueChild(AccumBase):
    def vjp_bwd(self, res, g):
        return (2.0 * g,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax


class Scale(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def vjp_fwd(self, nzs_in, x):
        return 2.0 * x, None

    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(2.0 * g)
        return None


class Triple(Scale):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(3.0 * g)


class AccumBase(VJPHiPrimitive):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)


class ValueChild(AccumBase):
    def vjp_bwd(self, res, g, *arg_accums):
        jax.tree.map(lambda acc, ct: acc.accum(ct), arg_accums, (2.0 * g,))
        return None
