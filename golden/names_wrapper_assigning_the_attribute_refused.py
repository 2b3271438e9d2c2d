import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = cls.__dict__.get("vjp_bwd")
        if rule is not None:

            def clipped(self, res, g, _rule=rule):
                return tuple(jnp.clip(c, -1.0, 1.0) for c in _rule(self, res, g))

            cls.vjp_bwd = clipped  # an attribute: a rename of the string alone would not follow it


class Sq(Clipped):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 21 error HJX001 Sq: `vjp_bwd` is reached by name at line 8 (`cls.__dict__.get("vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
