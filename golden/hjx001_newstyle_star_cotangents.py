# jax 0.8.0's rule: vjp_bwd(self, res, *args), args holding the output cotangent
from jax._src.hijax import NewstyleHiPrimitive


class Mul(NewstyleHiPrimitive):
    def vjp_fwd(self, x, y):
        return self(x, y), (x, y)

    def vjp_bwd(self, res, *gs):
        (g,) = gs
        x, y = res
        return (g * y, g * x)
# output
# jax 0.8.0's rule: vjp_bwd(self, res, *args), args holding the output cotangent
from jax._src.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return self(x, y), (x, y)

    def vjp_bwd_retval(self, res, *gs):
        (g,) = gs
        x, y = res
        return (g * y, g * x)
