from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = type(self).__mro__[1].vjp_bwd(self, res, g)  # Sq, on a Half; Half on a subclass
        return (0.5 * d,)
# findings
# 8 error HJX001 Sq: `vjp_bwd` is reached at line 14 through `type(self).__mro__[1].vjp_bwd`, on a class picked from the instance's hierarchy when the code runs: neither a rename nor accumulators would follow it there; port both by hand
# 13 error HJX001 Half: `vjp_bwd` is reached at line 14 through `type(self).__mro__[1].vjp_bwd`, on a class picked from the instance's hierarchy when the code runs: neither a rename nor accumulators would follow it there; port both by hand
