from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


for _n in ("vjp_fwd", "vjp_bwd"):
    setattr(Sq, "_base_" + _n, getattr(Sq, _n))
# findings
# 8 error HJX001 Sq: `vjp_bwd` is reached by name at line 13 (`getattr(Sq, _n)`): neither a rename nor accumulators would follow it there; port both by hand
