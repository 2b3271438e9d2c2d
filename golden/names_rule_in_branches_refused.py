from jax.experimental.hijax import VJPHiPrimitive

FAST = True


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    if FAST:
        def vjp_bwd(self, res, g):
            return (2 * res * g,)
    else:
        def vjp_bwd(self, res, g):
            return (res * g + res * g,)


RULE = getattr(Sq, "vjp_bwd")
# findings
# 11 error HJX001 Sq: `vjp_bwd` is reached by name at line 18 (`getattr(Sq, "vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
