from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)

    _reference_bwd = vjp_bwd  # kept for tests
# findings
# 8 error HJX001 Sq: `vjp_bwd` is named in the class body (line 11): a rename would leave that name unbound, and accumulators change its calls; port both by hand
