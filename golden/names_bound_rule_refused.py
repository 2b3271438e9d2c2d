from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * res * g,)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    vjp_bwd = _bwd


RULE = getattr(Sq, "vjp_bwd")
# findings
# 12 error HJX001 Sq: `vjp_bwd` is reached by name at line 15 (`getattr(Sq, "vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
