import operator

from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Cube(Sq):
    def vjp_bwd(self, res, g):
        (d,) = operator.methodcaller("vjp\x5fbwd", res, g)(super())  # an escape spells the name
        return (1.5 * res * d,)
# findings
# 10 error HJX001 Sq: `vjp_bwd` is reached by name at line 16 (`operator.methodcaller("vjp\x5fbwd", res, g)`): neither a rename nor accumulators would follow it there; port both by hand
# 15 error HJX001 Cube: `vjp_bwd` is reached by name at line 16 (`operator.methodcaller("vjp\x5fbwd", res, g)`): neither a rename nor accumulators would follow it there; port both by hand
