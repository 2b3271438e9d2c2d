from jax.experimental.hijax import VJPHiPrimitive

NAME = "vjp_bwd"


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = getattr(Sq, NAME)(self, res, g)
        return (0.5 * d,)
# findings
# 10 error HJX001 Sq: `vjp_bwd` is reached by name at line 16 (`getattr(Sq, NAME)`): neither a rename nor accumulators would follow it there; port both by hand
# 15 error HJX001 Half: `vjp_bwd` is reached by name at line 16 (`getattr(Sq, NAME)`): neither a rename nor accumulators would follow it there; port both by hand
