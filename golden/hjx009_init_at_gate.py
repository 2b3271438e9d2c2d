# flags: --target-jax 0.8.1
from jax._src.hijax import NewstyleHiPrimitive
import jax.experimental.hijax as hjx


class Pow(NewstyleHiPrimitive):
    def __init__(self, aval, power):
        # shapes are checked by the caller
        super().__init__([aval], aval, power=power)  # params become attributes
        self.scale = 2.0


class Pair(hjx.NewstyleHiPrimitive):
    def __init__(self, avals, out, **params):
        if params:
            hjx.NewstyleHiPrimitive.__init__(self, avals, out_aval=out, **params)
        else:
            super(Pair, self).__init__(in_avals=avals, out_aval=out)
# output
from jax._src.hijax import VJPHiPrimitive
import jax.experimental.hijax as hjx


class Pow(VJPHiPrimitive):
    def __init__(self, aval, power):
        # shapes are checked by the caller
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = dict(power=power)
        super().__init__()  # params become attributes
        self.scale = 2.0


class Pair(hjx.VJPHiPrimitive):
    def __init__(self, avals, out, **params):
        if params:
            self.in_avals = tuple(avals)
            self.out_aval = out
            self.params = dict(**params)
            hjx.VJPHiPrimitive.__init__(self)
        else:
            self.in_avals = tuple(avals)
            self.out_aval = out
            self.params = {}
            super(Pair, self).__init__()
