# flags: --target-jax 0.8.0
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
