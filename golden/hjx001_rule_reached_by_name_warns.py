from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Cube(Sq):
    def vjp_bwd(self, res, g):
        (d,) = getattr(super(), "vjp_bwd")(res, g)  # a rename would not reach it
        return (1.5 * res * d,)
# findings
# 8 error HJX001 Sq: `vjp_bwd` is reached by name at line 14 (`getattr(super(), "vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
# 13 error HJX001 Cube: `vjp_bwd` is reached by name at line 14 (`getattr(super(), "vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
