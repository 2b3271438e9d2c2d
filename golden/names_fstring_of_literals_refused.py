from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = self.__class__.__mro__[1].__dict__.get(f"vjp_{'bwd'}")(self, res, g)
        return (0.5 * d,)
# findings
# 8 error HJX001 Sq: `vjp_bwd` is reached by name at line 14 (`self.__class__.__mro__[1].__dict__.get(f"vjp_{'bwd'}")`): neither a rename nor accumulators would follow it there; port both by hand
# 13 error HJX001 Half: `vjp_bwd` is reached by name at line 14 (`self.__class__.__mro__[1].__dict__.get(f"vjp_{'bwd'}")`): neither a rename nor accumulators would follow it there; port both by hand
