import operator

from jax.experimental.hijax import VJPHiPrimitive

RULE = "vjp_" "bwd"
_rule = operator.attrgetter(RULE)


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Half(Sq):
    def vjp_bwd(self, res, g):
        (d,) = _rule(Sq)(self, res, g)
        return (0.5 * d,)
# findings
# 13 error HJX001 Sq: `vjp_bwd` is reached by name at line 6 (`operator.attrgetter(RULE)`): neither a rename nor accumulators would follow it there; port both by hand
# 18 error HJX001 Half: `vjp_bwd` is reached by name at line 6 (`operator.attrgetter(RULE)`): neither a rename nor accumulators would follow it there; port both by hand
